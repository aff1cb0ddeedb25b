# Salud in a container: `docker compose up -d` (compose.yaml) or `make image`.
# The token comes from the environment (DISCORD_TOKEN); the database lives on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/bot.sqlite3

# The run-time dependencies only (no test tools), then the code is removed with its sources.
WORKDIR /src
COPY pyproject.toml README.md ./
COPY rules/ rules/
COPY bot/ bot/
COPY cogs/ cogs/
RUN pip install . && rm -rf /src

# A user of its own, who owns nothing but the data folder.
RUN useradd --system --uid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin salud \
    && mkdir /data && chown salud:salud /data
VOLUME /data
WORKDIR /data
USER salud

# SIGTERM: the bot finishes the commands in flight (at most 5 s) and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["salud"]
