package io.rdmareactive.internal.protocol;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Linux futexes on shared memory, through the C library's {@code syscall} (bound with the FFM API): a thread waits
 * while a 32-bit word still holds a value, and any thread of any process that maps the same memory wakes it. An event
 * loop sleeps on the word in its doorbell page ({@link Doorbells}) this way, so that a peer in another process that
 * writes to one of its connections can wake it at once, which {@code LockSupport.unpark} cannot do across processes.
 *
 * <p>Where the call cannot be bound (not Linux on x86-64 or AArch64, or native access denied), {@link #AVAILABLE} is
 * false and loops park their thread as before. Waits are not private futexes: the word is in a shared mapping.
 */
final class Futex {

    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** The {@code futex} system call's number on this machine, or -1. */
    private static final long SYS_FUTEX = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 202;
        case "aarch64" -> 98;
        default -> -1;
    };

    /** {@code long syscall(long number, ...)}, the variadic arguments passed as longs (registers on both ABIs). */
    private static final MethodHandle SYSCALL = bind();

    /** True where futexes can be used. */
    static final boolean AVAILABLE = SYSCALL != null;

    private Futex() {
    }

    /** Binds the system call now, if it was not yet (its first use costs tens of milliseconds of linking). */
    static void ensureBound() {
        // the class initialiser did it
    }

    private static MethodHandle bind() {
        if (SYS_FUTEX < 0 || !System.getProperty("os.name", "").startsWith("Linux")
            || Boolean.getBoolean("rdma.loop.noFutex")) {
            return null;
        }
        try {
            final Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                    JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
        } catch (final RuntimeException | LinkageError ex) {
            return null; // e.g. native access denied: loops park their thread instead
        }
    }

    /**
     * Waits while the word at {@code address} holds {@code expected}, at most {@code nanos}; returns at once if it
     * holds another value, and may return early (a signal, a spurious wake-up): the caller looks for work either way.
     *
     * @param timespec sixteen bytes of the caller's, written here (a {@code struct timespec})
     */
    static void await(final long address, final int expected, final MemorySegment timespec, final long nanos) {
        timespec.set(JAVA_LONG, 0, nanos / NANOS_PER_SECOND);
        timespec.set(JAVA_LONG, Long.BYTES, nanos % NANOS_PER_SECOND);
        try {
            final long ignored = (long) SYSCALL.invokeExact(SYS_FUTEX, address, (long) FUTEX_WAIT, (long) expected,
                timespec.address(), 0L, 0L);
        } catch (final Throwable ex) {
            throw new IllegalStateException("futex wait failed", ex);
        }
    }

    /** Wakes a thread waiting on the word at {@code address}, if one is (any thread). */
    static void wake(final long address) {
        try {
            final long ignored = (long) SYSCALL.invokeExact(SYS_FUTEX, address, (long) FUTEX_WAKE, 1L, 0L, 0L, 0L);
        } catch (final Throwable ex) {
            throw new IllegalStateException("futex wake failed", ex);
        }
    }
}
