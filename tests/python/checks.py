"""The bookkeeping the python checks share: each check prints `ok:` or `FAIL:` as it goes,
and the run ends with a count of the failures and an exit status."""

failures = []


def check(name, condition, detail=""):
    """Prints the check's outcome (with `detail` when it failed) and returns `condition`."""
    if condition:
        print(f"ok: {name}", flush=True)
    else:
        failures.append(name)
        print(f"FAIL: {name}{': ' + str(detail) if detail else ''}", flush=True)
    return condition


def summary(detail):
    """Prints how the run went, `detail` after it; returns the exit status (1 on a failure)."""
    if failures:
        print(f"{len(failures)} check(s) FAILED {detail}", flush=True)
        return 1
    print(f"all checks passed {detail}", flush=True)
    return 0
