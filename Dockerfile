# AI Stack Selector as a container: the app on port 8501, the bundled knowledge base, nothing fetched at run time.
# Build: docker build -t ai-stack-selector .   Run: docker run -p 8501:8501 ai-stack-selector
FROM python:3.11-slim

# Pango renders the PDF report (WeasyPrint, charts drawn as SVG); the CJK font shows the articles' Chinese quotes in
# reports. Installed at build time so that the running container downloads nothing.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        fontconfig fonts-noto-cjk libpango-1.0-0 libpangoft2-1.0-0 \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    STREAMLIT_SERVER_PORT=8501

WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# The app reads knowledge/ and never writes to it: the files belong to root and the server runs as an unprivileged
# user that owns nothing here.
COPY .streamlit ./.streamlit
COPY app.py serve.py ./
COPY app_pages ./app_pages
COPY selector ./selector
COPY knowledge ./knowledge
# A new container's first page neither compiles the app's modules nor parses the knowledge's YAML: both are done
# here (validating the knowledge on the way), and the server, which cannot write under /app, only reads them.
ENV SELECTOR_CACHE_DIR=/app/.parse-cache
RUN python -m compileall -q app.py serve.py app_pages selector \
    && python -m selector validate
RUN useradd --create-home --uid 10001 selector
USER selector

EXPOSE 8501
# slim images have no curl: the health check uses the interpreter already there.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status != 200)"]
# serve.py is `streamlit run app.py` that prepares the first page while Streamlit starts.
CMD ["python", "serve.py", "--server.address=0.0.0.0", "--server.port=8501"]
