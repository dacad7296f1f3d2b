"""The app's pages, one module per screen (widgets and rendering only; the logic lives in selector/)."""
