"""usage: python -m tcsparse.run PROGRAM [ARGS...]   (or: tcsparse-run PROGRAM [ARGS...])

Runs an unmodified program with its cuSPARSE calls on tcsparse. PROGRAM runs with the
package's libtcsparse_cusparse.so (the swap-in shim, which finds libtcsparse.so beside
it) first in LD_PRELOAD: its SpGEMM, SpMM and SpMV calls run on tcsparse, every other
cuSPARSE call on the real cuSPARSE (docs/migration.md). The process is replaced (exec),
so the exit status is PROGRAM's. TCSPARSE_SHIM_LIBRARY names another shim file;
TCS_LOG_LEVEL=2 lists the calls tcsparse ran.
"""
import os
import sys

from ._capi import EXPECTED_MAJOR, PACKAGE_LIBRARY_DIR

def shim_path():
    """The shim that is preloaded: $TCSPARSE_SHIM_LIBRARY, else the package's copy."""
    return os.environ.get("TCSPARSE_SHIM_LIBRARY") or os.path.join(
        PACKAGE_LIBRARY_DIR, "libtcsparse_cusparse.so.%d" % EXPECTED_MAJOR)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    shim = shim_path()
    if not os.path.isfile(shim):
        print("tcsparse.run: the swap-in library %s does not exist (this tcsparse was built "
              "without it, or set TCSPARSE_SHIM_LIBRARY)" % shim, file=sys.stderr)
        return 127
    env = dict(os.environ)
    env["LD_PRELOAD"] = os.pathsep.join(p for p in (shim, env.get("LD_PRELOAD")) if p)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvpe(argv[0], argv, env)
    except OSError as error:
        print("tcsparse.run: cannot run %s: %s" % (argv[0], error), file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main())
