# ordex.py - gdb commands for `ordex replay --gdb TRACE`.
#
# `ordex replay --gdb` starts gdb on the ordex binary itself, replaying the
# trace with every rank in an OS thread named "rank N" (only one runs at a
# time) and the program's per-rank copies loaded from real files, so gdb knows
# their source lines: `break prog.c:42 if ordex_rank == 1` stops rank 1 only.
#
# The replay calls ordex_gdb_stop() before every step of the trace, when every
# rank waits in MPI; this file keeps a breakpoint there that only stops at the
# step asked for.  It reads ordex's exported ordex_gdb_* variables and calls
# its ordex_gdb_describe() and ordex_gdb_where() functions.
#
#   ordex start [N]   run the replay from the beginning up to the stop before step N
#   ordex ranks       every rank: state, gdb thread, pending MPI call, file:line
#   ordex where       the current step and the next one
#   ordex step        fire the next step of the trace and stop before the one after
#                     (after the last one: at the end of the run, before the report)
#   ordex goto N      run on to the stop before step N
#   ordex thread R    select the thread of rank R, at its frame in the program
#   $ordex_rank       the rank running when gdb last stopped (-1: the scheduler)
#
# The ordex binary built for tests carries no debug information, so
# `ordex_rank` would have no type there; the first stop then loads a tiny
# typed description of it (compiled with gcc, which ordex needs anyway).
#
# Temporary files of the session (that description, and the replay's copies
# of the program, which ordex puts in $ORDEX_GDB_TMPDIR) live in one
# directory, removed when gdb ends: gdb kills the replay at its end, before
# ordex could remove its own.

import atexit
import os
import shutil
import subprocess
import tempfile

import gdb


def _remove_session_dir(*_):
    if _session_dir and os.path.isdir(_session_dir):
        shutil.rmtree(_session_dir, ignore_errors=True)


_session_dir = tempfile.mkdtemp(prefix="ordex-gdb-")
if hasattr(gdb.events, "gdb_exiting"):
    gdb.events.gdb_exiting.connect(_remove_session_dir)
atexit.register(_remove_session_dir)
gdb.execute("set environment ORDEX_GDB_TMPDIR %s" % _session_dir, to_string=True)


class _State:
    default_target = 1  # the step `ordex start` stops before
    target = None  # stop when the replay is before this step (or later)
    hit = False  # the last resume ended at the replay's stop
    typed_symbols = None  # file describing ordex_rank, once loaded


def _value(expr):
    return gdb.parse_and_eval(expr)


def _int(name):
    # ordex's own variables may lack debug information: say their type.
    return int(_value("*(int *)&%s" % name))


def _running():
    inf = gdb.selected_inferior()
    return inf is not None and inf.pid != 0 and len(inf.threads()) > 0


def _require_running():
    if not _running():
        raise gdb.GdbError("the replay is not running (start it with: ordex start [N])")


class _Locked:
    """Only the selected thread runs while gdb calls into ordex, and the
    helper processes ordex starts to symbolise addresses go unannounced."""

    def __enter__(self):
        self.lock = gdb.parameter("scheduler-locking")
        self.events = gdb.parameter("print inferior-events")
        gdb.execute("set scheduler-locking on", to_string=True)
        gdb.execute("set print inferior-events off", to_string=True)

    def __exit__(self, *exc):
        gdb.execute("set scheduler-locking %s" % self.lock, to_string=True)
        gdb.execute("set print inferior-events %s" % ("on" if self.events else "off"),
                    to_string=True)
        return False


def _call_string(call):
    with _Locked():
        return _value("(char *) %s" % call).string()


def _rank_threads():
    """{rank: gdb thread number} from the threads' names."""
    out = {}
    for th in gdb.selected_inferior().threads():
        name = th.name or ""
        if name.startswith("rank "):
            try:
                out[int(name[5:])] = th.num
            except ValueError:
                pass
    return out


class _StopBreakpoint(gdb.Breakpoint):
    def __init__(self):
        super().__init__("ordex_gdb_stop", type=gdb.BP_BREAKPOINT, internal=True)
        self.silent = True

    def stop(self):
        if _State.target is None:
            return False
        try:
            step = _int("ordex_gdb_step")
            ended = _int("ordex_gdb_ended")
        except gdb.error:
            return False
        if step < _State.target and not ended:
            return False
        _State.hit = True
        return True


class _LoadBreakpoint(gdb.Breakpoint):
    """ordex takes the ranks' copies of the program off the dynamic linker's
    list while it loads them (scheduler/loader.c), between its calls of
    ordex_gdb_loading() and ordex_gdb_loaded(): gdb would take a copy it saw
    and then lost for unloaded, and leave the breakpoints it had put in it.
    So gdb reads no shared library's symbols in between, and reads them all
    once every copy is back."""

    def __init__(self, spec, loading):
        super().__init__(spec, type=gdb.BP_BREAKPOINT, internal=True)
        self.silent = True
        self.loading = loading

    def stop(self):
        if self.loading:
            gdb.execute("set auto-solib-add off", to_string=True)
        else:
            gdb.execute("set auto-solib-add on", to_string=True)
            gdb.execute("sharedlibrary", to_string=True)
        return False


_bp = None
_load_bps = []


def _ensure_breakpoint():
    global _bp, _load_bps
    if _bp is None or not _bp.is_valid():
        _bp = _StopBreakpoint()
    if not _load_bps or not all(b.is_valid() for b in _load_bps):
        for b in _load_bps:
            if b.is_valid():
                b.delete()
        _load_bps = [_LoadBreakpoint("ordex_gdb_loading", True),
                     _LoadBreakpoint("ordex_gdb_loaded", False)]


def _typed_rank():
    """Makes `ordex_rank` usable in expressions when ordex lacks debug info."""
    try:
        _value("ordex_rank + 0")
        return
    except gdb.error:
        pass
    if _State.typed_symbols:
        return
    try:
        addr = int(_value("(long) &ordex_rank"))
        src = os.path.join(_session_dir, "ordex_rank.c")
        obj = os.path.join(_session_dir, "ordex_rank.o")
        with open(src, "w") as f:
            f.write("/* The running rank (-1: the scheduler); set by ordex. */\n"
                    "int ordex_rank;\n")
        cc = os.environ.get("ORDEX_CC", "gcc")
        subprocess.run([cc, "-g", "-c", "-fno-common", src, "-o", obj], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        confirm = gdb.parameter("confirm")
        gdb.execute("set confirm off", to_string=True)
        try:
            gdb.execute("add-symbol-file %s -s .bss %d" % (obj, addr), to_string=True)
        finally:
            gdb.execute("set confirm %s" % ("on" if confirm else "off"), to_string=True)
        _State.typed_symbols = obj
    except (gdb.error, OSError, subprocess.CalledProcessError) as e:
        print("ordex: `ordex_rank` has no type in this ordex binary (%s); write "
              "`*(int *)&ordex_rank` instead" % e)


def _update_rank_var(event=None):
    try:
        if _running():
            gdb.set_convenience_variable("ordex_rank", _int("ordex_rank"))
    except gdb.error:
        pass


def _report_stop():
    if _State.hit:
        _State.hit = False
        _State.target = None
        _typed_rank()
        _update_rank_var()
        print("ordex: " + _call_string("ordex_gdb_where()").replace("\n", "\nordex: "))


def _resume(cmd, target):
    _ensure_breakpoint()
    _State.target = target
    _State.hit = False
    try:
        gdb.execute(cmd)
    finally:
        if not _State.hit:
            _State.target = None
    _report_stop()


def _parse_step(arg, what):
    try:
        n = int(gdb.parse_and_eval(arg))
    except (gdb.error, ValueError):
        raise gdb.GdbError("%s: expected a step number, got '%s'" % (what, arg))
    if n < 1:
        raise gdb.GdbError("%s: step numbers start at 1" % what)
    return n


class OrdexCommand(gdb.Command):
    """Replay of an ordex trace: ordex start|ranks|where|step|goto|thread.

The replay stops before a step of the trace, while every rank waits in an
MPI call (or has ended).  Every rank is a thread named "rank N"; the
variable ordex_rank (and $ordex_rank) is the running rank, -1 in ordex's
scheduler:  break prog.c:42 if ordex_rank == 1"""

    def __init__(self):
        super().__init__("ordex", gdb.COMMAND_RUNNING, gdb.COMPLETE_NONE, True)

    def invoke(self, arg, from_tty):
        gdb.execute("help ordex")


class OrdexStart(gdb.Command):
    """Run the replay from the beginning and stop before step N (default: the
step ordex replay --gdb chose, the first that leaves the default schedule)."""

    def __init__(self):
        super().__init__("ordex start", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        if arg.strip():
            _State.default_target = _parse_step(arg.strip(), "ordex start")
        _resume("run", _State.default_target)


class OrdexRanks(gdb.Command):
    """Every rank: its state, its gdb thread, and its pending MPI call with
arguments and file:line (or how it ended)."""

    def __init__(self):
        super().__init__("ordex ranks", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        _require_running()
        n = _int("ordex_gdb_nranks")
        running = _int("ordex_rank")
        threads = _rank_threads()
        for r in range(n):
            text = _call_string("ordex_gdb_describe(%d)" % r)
            state, _, what = text.partition("\t")
            th = threads.get(r)
            print("%s rank %d  %-7s  thread %-4s %s" % ("*" if r == running else " ", r, state,
                                                         th if th is not None else "-", what))


class OrdexWhere(gdb.Command):
    """The replay's position in the trace and the step that comes next."""

    def __init__(self):
        super().__init__("ordex where", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        _require_running()
        print(_call_string("ordex_gdb_where()"))


class OrdexStep(gdb.Command):
    """Fire the next step of the trace (the ranks it wakes run on) and stop
before the one after it."""

    def __init__(self):
        super().__init__("ordex step", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        _require_running()
        # At a stop before step k, and anywhere after that stop until the
        # next one, the next stop is the one before step k + 1.
        _resume("continue", _int("ordex_gdb_step") + 1)


class OrdexGoto(gdb.Command):
    """Run on to the stop before step N of the trace."""

    def __init__(self):
        super().__init__("ordex goto", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        n = _parse_step(arg.strip(), "ordex goto")
        if not _running():
            _resume("run", n)
            return
        cur = _int("ordex_gdb_step")
        if _int("ordex_gdb_at_stop") and n == cur:
            print("ordex: already before step %d" % n)
            return
        if n <= cur:
            raise gdb.GdbError("ordex goto: step %d is behind; start over with: ordex start %d"
                               % (n, n))
        _resume("continue", n)


# Where the system's shared libraries are (scheduler/loader.c says the same):
# ordex shares these between ranks, and they are not the program's code.
_SYSTEM_DIRS = ("/lib/", "/lib64/", "/lib32/", "/libx32/", "/usr/lib/", "/usr/lib64/",
                "/usr/lib32/", "/usr/libx32/")


def _is_program_code(objfile):
    """Whether objfile is the program's own code: a rank's copy of the
    program or of one of the user's own libraries, not ordex itself and not
    a system library."""
    if not objfile:
        return False
    real = os.path.realpath(objfile)
    exe = gdb.current_progspace().filename
    if exe and real == os.path.realpath(exe):
        return False
    return not real.startswith(_SYSTEM_DIRS)


def _program_frame():
    """The innermost frame of the selected thread in the program's own code,
    or None."""
    frame = gdb.newest_frame()
    while frame is not None:
        sal = frame.find_sal()
        if sal.symtab and _is_program_code(sal.symtab.objfile.filename):
            return frame
        frame = frame.older()
    return None


class OrdexThread(gdb.Command):
    """Select the thread of rank R, and in it the innermost frame of the
program's code (where the rank called MPI, or stopped)."""

    def __init__(self):
        super().__init__("ordex thread", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        _require_running()
        try:
            r = int(arg.strip())
        except ValueError:
            raise gdb.GdbError("ordex thread: expected a rank number")
        num = _rank_threads().get(r)
        if num is None:
            raise gdb.GdbError("ordex thread: no thread named \"rank %d\"" % r)
        for th in gdb.selected_inferior().threads():
            if th.num == num:
                th.switch()
        print("[thread %d, \"rank %d\"]" % (num, r))
        frame = _program_frame()
        if frame is not None:
            frame.select()
        gdb.execute("frame")


OrdexCommand()
OrdexStart()
OrdexRanks()
OrdexWhere()
OrdexStep()
OrdexGoto()
OrdexThread()
gdb.events.stop.connect(_update_rank_var)
# One line per rank thread appearing would drown the replay's output.
gdb.execute("set print thread-events off", to_string=True)
