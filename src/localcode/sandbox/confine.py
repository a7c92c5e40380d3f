"""Kernel lock-down primitives for a forked child: namespaces, uid, rlimits, Landlock, seccomp.

Linux only; every function raises OSError when the kernel refuses, and callers decide whether that
is fatal. Landlock constants from include/uapi/linux/landlock.h; seccomp via libseccomp (pyseccomp).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import resource
import signal
from collections.abc import Iterable
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWCGROUP = 0x02000000
NS_FLAGS = (
    CLONE_NEWNS,
    CLONE_NEWUSER,
    CLONE_NEWPID,
    CLONE_NEWNET,
    CLONE_NEWIPC,
    CLONE_NEWUTS,
    CLONE_NEWCGROUP,
)

MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 8, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 1, 4, 38

_SYS_LANDLOCK_CREATE_RULESET, _SYS_LANDLOCK_ADD_RULE, _SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
_LL_EXECUTE, _LL_WRITE_FILE, _LL_READ_FILE, _LL_READ_DIR = 1, 2, 4, 8
_LL_FILE_RIGHTS = {1: 0b111, 2: 0b111, 3: 0b111 | 1 << 14, 4: 0b111 | 1 << 14, 5: 0b111 | 3 << 14}
_LL_ALL_FS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1}
_LL_NET_TCP = 0b11  # bind and connect
_LL_SCOPE_ALL = 0b11  # abstract unix sockets and signals outside the domain

_libc = ctypes.CDLL(None, use_errno=True)


def _check(ret: int) -> int:
    if ret < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return ret


def unshare(flags: int) -> None:
    """Enter new namespaces (`CLONE_NEW*` flags)."""
    _check(_libc.unshare(ctypes.c_int(flags)))


def setns(fd: int, nstype: int) -> None:
    """Join the namespace open at `fd` (for a PID namespace: the one new children are born in)."""
    _check(_libc.setns(ctypes.c_int(fd), ctypes.c_int(nstype)))


def fork_into_new_pid_namespace(own_pid_ns: int) -> int:
    """fork() with the child as PID 1 of a new PID namespace, in one process hop instead of an
    unshare-and-fork in a middle process. The caller stays where it was: `own_pid_ns` is an fd
    of its own PID namespace, rejoined for its later children."""
    unshare(CLONE_NEWPID)
    pid = os.fork()
    if pid:
        setns(own_pid_ns, CLONE_NEWPID)
    return pid


def empty_net_namespace() -> int:
    """An fd of a new network namespace (a loopback that is down, nothing else); the caller stays
    in its own."""
    own = os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    try:
        unshare(CLONE_NEWNET)
        try:
            return os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        finally:
            setns(own, CLONE_NEWNET)
    finally:
        os.close(own)


def map_own_ids() -> None:
    """In a fresh user namespace, map our outer uid/gid to the same ids inside (unprivileged path)."""
    uid, gid = os.geteuid(), os.getegid()
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def private_mounts() -> None:
    """A mount namespace of one's own, whose mounts never propagate to the host."""
    unshare(CLONE_NEWNS)
    _check(_libc.mount(None, b"/", None, ctypes.c_ulong(MS_REC | MS_PRIVATE), None))


def mount_private_proc() -> None:
    """Stop mount propagation to the host, then show only this PID namespace in /proc."""
    _check(_libc.mount(None, b"/", None, ctypes.c_ulong(MS_REC | MS_PRIVATE), None))
    _check(
        _libc.mount(
            b"proc", b"/proc", b"proc", ctypes.c_ulong(MS_NOSUID | MS_NODEV | MS_NOEXEC), None
        )
    )


def hide_dir(path: str) -> None:
    """Cover `path` with an empty read-only tmpfs in this mount namespace."""
    _check(
        _libc.mount(
            b"tmpfs",
            os.fsencode(path),
            b"tmpfs",
            ctypes.c_ulong(MS_NOSUID | MS_NODEV | MS_NOEXEC | 1),
            b"size=4k,mode=0555",
        )
    )


def expose_to_others(paths: Iterable[str]) -> None:
    """In a private mount namespace, as root: make `paths` reachable for an unprivileged uid when
    a parent directory is closed to others (Python under /root): cover that directory with an
    empty tmpfs and bind-mount only those paths back. Hides the rest of it, too."""
    covers: dict[str, list[str]] = {}
    for path in paths:
        blocked = _first_closed_ancestor(path)
        if blocked:
            covers.setdefault(blocked, []).append(path)
    for cover, inside in covers.items():
        fds = {p: os.open(p, os.O_PATH | os.O_CLOEXEC) for p in inside if os.path.exists(p)}
        _check(
            _libc.mount(
                b"tmpfs",
                os.fsencode(cover),
                b"tmpfs",
                ctypes.c_ulong(MS_NOSUID | MS_NODEV),
                b"mode=0755",
            )
        )
        for path, fd in fds.items():
            if os.path.isdir(f"/proc/self/fd/{fd}"):
                os.makedirs(path, 0o755, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(path), 0o755, exist_ok=True)
                open(path, "a").close()  # noqa: SIM115 - a mount point for the file
            _check(
                _libc.mount(
                    os.fsencode(f"/proc/self/fd/{fd}"),
                    os.fsencode(path),
                    None,
                    ctypes.c_ulong(MS_BIND | MS_REC),
                    None,
                )
            )
            os.close(fd)


def _first_closed_ancestor(path: str) -> str | None:
    parts = os.path.abspath(path).split(os.sep)[1:]
    for i in range(1, len(parts)):
        ancestor = os.sep + os.sep.join(parts[:i])
        try:
            if not os.stat(ancestor).st_mode & 0o001:
                return ancestor
        except OSError:
            return None
    return None


def set_pdeathsig(expected_parent: int) -> None:
    """Die with SIGKILL when the parent dies; die now if it already has."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0))
    if os.getppid() != expected_parent:
        os._exit(137)


def set_no_new_privs() -> None:
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))


def set_undumpable() -> None:
    """Hide /proc/self/{mem,fd,environ} from processes of the same uid."""
    _check(_libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))


def drop_to_uid(uid: int) -> None:
    """As root: become `uid` with no groups; capabilities go with it."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def drop_capabilities() -> None:
    """Clear every capability (the ones a user namespace grants its creator)."""
    header = _CapHeader(0x20080522, 0)
    data = (_CapData * 2)()
    _check(_libc.capset(ctypes.byref(header), ctypes.byref(data)))


def set_rlimits(
    *, cpu_s: int, memory_mb: int, file_mb: int, nofile: int, nproc: int | None
) -> None:
    """Hard limits the child cannot raise again."""
    limits = [
        (resource.RLIMIT_CPU, cpu_s),
        (resource.RLIMIT_FSIZE, file_mb << 20),
        (resource.RLIMIT_NOFILE, nofile),
        (resource.RLIMIT_CORE, 0),
    ]
    if memory_mb > 0:
        limits.append((resource.RLIMIT_AS, memory_mb << 20))
    if nproc is not None:  # ignored for uid 0, so only meaningful once the uid is dropped
        limits.append((resource.RLIMIT_NPROC, nproc))
    for which, value in limits:
        resource.setrlimit(which, (value, value))


def landlock_abi() -> int:
    """Landlock ABI version of the running kernel; 0 when unsupported."""
    try:
        return max(
            0,
            _libc.syscall(
                _SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1)
            ),
        )
    except (AttributeError, OSError):
        return 0


def landlock(read: Iterable[str], write: Iterable[str], abi: int) -> None:
    """Allow reads under `read`, reads and writes under `write`, no TCP, no signals/abstract
    sockets outside the domain (as far as `abi` supports); deny everything else on the filesystem."""
    fs_all = _LL_ALL_FS.get(abi, (1 << 16) - 1)
    handled = [fs_all, _LL_NET_TCP if abi >= 4 else 0, _LL_SCOPE_ALL if abi >= 6 else 0]
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    attr = (ctypes.c_uint64 * 3)(*handled)
    fd = _check(
        _libc.syscall(
            _SYS_LANDLOCK_CREATE_RULESET,
            ctypes.byref(attr),
            ctypes.c_size_t(size),
            ctypes.c_uint32(0),
        )
    )
    try:
        file_rights = _LL_FILE_RIGHTS.get(abi, 0b111 | 3 << 14)
        for path in read:
            _landlock_path(fd, path, _LL_EXECUTE | _LL_READ_FILE | _LL_READ_DIR, file_rights)
        for path in write:
            _landlock_path(fd, path, fs_all, file_rights)
        set_no_new_privs()
        _check(_libc.syscall(_SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0)))
    finally:
        os.close(fd)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _landlock_path(ruleset: int, path: str, rights: int, file_rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a path that does not exist needs no rule
    try:
        if not os.path.isdir(path):
            rights &= file_rights
        rule = _PathBeneath(rights, fd)
        _check(
            _libc.syscall(
                _SYS_LANDLOCK_ADD_RULE,
                ctypes.c_int(ruleset),
                ctypes.c_int(1),
                ctypes.byref(rule),
                ctypes.c_uint32(0),
            )
        )
    finally:
        os.close(fd)


_DENIED_SYSCALLS = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "unshare",
    "setns",
    "pivot_root",
    "chroot",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "swapon",
    "swapoff",
    "reboot",
    "userfaultfd",
    "open_by_handle_at",
    "name_to_handle_at",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "fsopen",
    "fsmount",
    "move_mount",
    "open_tree",
    "fspick",
    "pidfd_getfd",
    "kcmp",
    "acct",
    "settimeofday",
    "clock_settime",
    "adjtimex",
    "quotactl",
)


def seccomp_filter() -> Any:
    """A libseccomp filter (not yet loaded): no debugging other processes, no new namespaces or
    mounts, no kernel-object tricks, sockets only of family AF_UNIX and never connected or sent to
    an address. None if pyseccomp is missing."""
    try:
        import pyseccomp as sc
    except ImportError:
        return None
    f = sc.SyscallFilter(defaction=sc.ALLOW)
    deny = sc.ERRNO(errno.EPERM)
    for name in _DENIED_SYSCALLS:
        with contextlib.suppress(RuntimeError, ValueError, OSError):  # not on this arch
            f.add_rule(deny, name)
    f.add_rule(sc.ERRNO(errno.EAFNOSUPPORT), "socket", sc.Arg(0, sc.NE, 1))  # 1 = AF_UNIX
    # No way out through a UNIX socket: Landlock does not cover connecting to a pathname socket
    # (a Docker daemon, an ssh-agent, D-Bus), so nothing connects and nothing is sent to an
    # address. Pairs made with socketpair() (multiprocessing's pipes) need neither.
    f.add_rule(sc.ERRNO(errno.EACCES), "connect")
    f.add_rule(sc.ERRNO(errno.EACCES), "sendto", sc.Arg(4, sc.NE, 0))  # a destination address
    for name in ("sendmsg", "sendmmsg"):  # their address sits in memory a filter can't read
        f.add_rule(sc.ERRNO(errno.EACCES), name)
    for flag in NS_FLAGS:
        f.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    with contextlib.suppress(RuntimeError, ValueError, OSError):
        f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")  # its flags are in memory; libc falls back
    return f


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2


def compile_seccomp(seccomp: Any) -> bytes:
    """The filter as BPF, compiled once by libseccomp, so each child only loads it (~1 ms less)."""
    fd = os.memfd_create("localcode-seccomp", os.MFD_CLOEXEC)
    with os.fdopen(fd, "w+b") as f:
        seccomp.export_bpf(f)
        f.seek(0)
        return f.read()


def load_seccomp(bpf: bytes) -> None:
    """Install a compiled filter on this thread (no_new_privs must be set, as libseccomp does)."""
    prog = _SockFprog(len(bpf) // 8, bpf)
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0))


def close_fds_except(keep: Iterable[int]) -> None:
    """Close every inherited descriptor above stderr that is not in `keep`."""
    wanted = sorted(set(keep))
    low = 3
    for fd in wanted + [resource.getrlimit(resource.RLIMIT_NOFILE)[0]]:
        if fd >= low:
            os.closerange(low, fd)
        low = max(low, fd + 1)


def keep_mounts_private() -> None:
    """In a new mount namespace: let no mount made here reach the host, nor the host's reach here."""
    _check(_libc.mount(None, b"/", None, ctypes.c_ulong(MS_REC | MS_PRIVATE), None))


def mount_tmpfs(path: str, size_mb: int) -> None:
    """A private, size-capped tmpfs over `path` in this mount namespace."""
    options = f"size={size_mb}m,mode=0700".encode()
    flags = ctypes.c_ulong(MS_NOSUID | MS_NODEV)
    _check(_libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", flags, options))


def mount_overlay(target: str, lower: str, upper: str, work: str) -> None:
    """Cover `target` with an overlay of `lower` (never written) and `upper` (takes every write)."""
    options = f"lowerdir={lower},upperdir={upper},workdir={work}".encode()
    flags = ctypes.c_ulong(MS_NOSUID | MS_NODEV)
    _check(_libc.mount(b"overlay", os.fsencode(target), b"overlay", flags, options))
