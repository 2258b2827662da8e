"""The nightly pass's schedule: a crontab line, or a systemd service and timer, that
runs ``consolidate --all-agents --due`` on the same store at the configured time;
secrets stay in the environment file the job loads (``env_file``), never on its
command line. The CLI's ``schedule --print cron|systemd`` prints it."""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from amem_tui.paths import config_dir, data_dir

if TYPE_CHECKING:
    from amem_tui.config import Settings

#: The schedulers the text is written for.
Scheduler = Literal["cron", "systemd"]

#: The name of the systemd units (``.service`` and ``.timer``).
UNIT = "amem-tui-nightly"
#: Folders the job must see as this shell sees them, when they are moved from the default.
FOLDER_VARIABLES = ("AMEM_CONFIG_DIR", "AMEM_DATA_DIR", "AMEM_CACHE_DIR")


def env_file() -> Path:
    """The environment file the job loads (for ``QDRANT_API_KEY``): never written here."""
    return config_dir() / "nightly.env"


def log_file() -> Path:
    """Where the crontab line appends the pass's output."""
    return data_dir() / "nightly.log"


@dataclass(frozen=True)
class Schedule:
    """What the scheduler runs, when, with which variables, and the files to install."""

    scheduler: Scheduler
    time: str
    timezone: str | None
    command: list[str]
    environment: dict[str, str]
    secrets: list[str]
    env_file: str
    files: dict[str, str]


def program() -> list[str]:
    """How this amem-tui is started: its script beside the interpreter, else ``python -m``."""
    script = Path(sys.executable).parent / "amem-tui"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "amem_tui"]


def job_command(settings: Settings) -> tuple[list[str], dict[str, str], list[str]]:
    """The job's command line, the variables it sets, and the secrets it reads."""
    args = program()
    secrets: list[str] = []
    if settings.url:
        parts = urlsplit(settings.url)
        if parts.username or parts.password:
            secrets.append("AMEM_URL")  # credentials in the URL: never on a command line
        else:
            args += ["--url", settings.url]
    else:
        args += ["--store", str(settings.embedded_path.expanduser().resolve())]
    if settings.api_key:
        secrets.append("QDRANT_API_KEY")
    if settings.config_file is not None:
        args += ["--config", str(Path(settings.config_file).expanduser().resolve())]
    if settings.collection_chosen:
        args += ["--collection", settings.collection]
    if settings.model:
        args += ["--model", settings.model]
    args += ["consolidate", "--all-agents", "--due"]
    if "consolidation_threshold" in settings.model_fields_set:
        args += ["--threshold", f"{settings.consolidation_threshold:g}"]
    environment = {"AMEM_CONSOLIDATION_TIME": settings.consolidation_time}
    if settings.consolidation_timezone:
        environment["AMEM_CONSOLIDATION_TIMEZONE"] = settings.consolidation_timezone
    for name in FOLDER_VARIABLES:
        if os.environ.get(name):
            environment[name] = os.environ[name]
    return args, environment, secrets


# ---------------------------------------------------------------------- cron
def _cron_safe(text: str) -> str:
    """A crontab command field: ``%`` would end the command there."""
    return text.replace("%", "\\%")


def cron_text(
    hour: int, minute: int, zone: str | None, args: list[str], env: dict[str, str], envs: Path
) -> str:
    """A crontab line (and a ``CRON_TZ`` line before it when a zone is configured)."""
    quoted_env = shlex.quote(str(envs))
    # Under ``set -a`` every assignment (the file's and ours) is exported to the job.
    assigns = "".join(f"{k}={shlex.quote(v)}; " for k, v in env.items())
    log = log_file()
    command = (
        f"mkdir -p {shlex.quote(str(log.parent))}; "
        f"set -a; [ -r {quoted_env} ] && . {quoted_env}; {assigns}set +a; "
        f"exec {shlex.join(args)} >> {shlex.quote(str(log))} 2>&1"
    )
    line = f"{minute} {hour} * * * {_cron_safe(command)}"
    return f"CRON_TZ={zone}\n{line}" if zone else line


# ------------------------------------------------------------------- systemd
def _unit_word(word: str) -> str:
    """One word of a unit file's ``ExecStart=`` (quoted; ``%`` and ``$`` escaped)."""
    escaped = word.replace("%", "%%").replace("$", "$$")
    if any(ch.isspace() or ch in "\"'\\;" for ch in escaped):
        escaped = '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return escaped


def systemd_units(
    hour: int, minute: int, zone: str | None, args: list[str], env: dict[str, str], envs: Path
) -> dict[str, str]:
    """The service and the timer, by the path each goes to (user units)."""
    folder = "~/.config/systemd/user"
    environment = "\n".join(
        f"Environment={_unit_word(f'{key}={value}')}" for key, value in env.items()
    )
    service = f"""[Unit]
Description=amem-tui nightly pass: consolidate every agent (once a day)
After=network-online.target

[Service]
Type=oneshot
# Secrets (QDRANT_API_KEY) come from here, never from the command line.
EnvironmentFile=-{_unit_word(str(envs))}
{environment}
ExecStart={" ".join(_unit_word(word) for word in args)}
# 75: another process runs the pass (it holds the run lock): not a failure here.
SuccessExitStatus=75
Nice=10
"""
    when = f"*-*-* {hour:02d}:{minute:02d}:00" + (f" {zone}" if zone else "")
    timer = f"""[Unit]
Description=amem-tui nightly pass at {hour:02d}:{minute:02d}{" " + zone if zone else ""}

[Timer]
OnCalendar={when}
# A night missed while the machine was off runs at the next start (--due runs it once).
Persistent=true

[Install]
WantedBy=timers.target
"""
    return {f"{folder}/{UNIT}.service": service, f"{folder}/{UNIT}.timer": timer}


def nightly_schedule(settings: Settings, scheduler: Scheduler) -> Schedule:
    """The nightly pass as ``scheduler`` runs it; a time or zone the system does not
    know is refused (``InvalidInput``)."""
    from amem_tui.engine.for_apps import parse_hhmm, zone_of

    at = parse_hhmm(settings.consolidation_time)
    zone = settings.consolidation_timezone
    zone_of(zone)
    args, environment, secrets = job_command(settings)
    envs = env_file()
    if scheduler == "cron":
        files = {"crontab": cron_text(at.hour, at.minute, zone, args, environment, envs)}
    else:
        files = systemd_units(at.hour, at.minute, zone, args, environment, envs)
    time = f"{at.hour:02d}:{at.minute:02d}"
    return Schedule(scheduler, time, zone, args, environment, secrets, str(envs), files)


def instructions(schedule: Schedule) -> str:
    """The files to install, and where and how (with the secrets the job needs)."""
    zone, secrets = schedule.timezone, schedule.secrets
    needs = (
        f"# Put {' and '.join(secrets)} in {schedule.env_file} (NAME=value lines, chmod 600): "
        "the job reads it from there.\n"
        if secrets
        else ""
    )
    if schedule.scheduler == "cron":
        return (
            f"# amem-tui nightly pass at {schedule.time}"
            f"{' ' + zone if zone else ' (local time)'}: add with `crontab -e`\n"
            f"{needs}{schedule.files['crontab']}"
        )
    parts = [f"# {path}\n{body}" for path, body in schedule.files.items()]
    return (
        needs + "\n".join(parts) + f"# then: systemctl --user daemon-reload && "
        f"systemctl --user enable --now {UNIT}.timer"
    )
