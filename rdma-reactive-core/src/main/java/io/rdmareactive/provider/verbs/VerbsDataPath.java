package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The data-path entry points of libibverbs. {@code ibv_poll_cq}, {@code ibv_post_send} and {@code ibv_post_recv} are
 * {@code static inline} in {@code verbs.h}: each calls a function pointer in the {@code ops} of the device's
 * {@code struct ibv_context}. They are bound here as calls through a function pointer (the first argument), which
 * the completion queue and the queue pair read from the context once and keep.
 *
 * <p>Polling is bound with {@code Linker.Option.critical(false)}: {@code poll_cq} reads the completion queue in user
 * space, so the JVM's thread-state transition (about as long as the call itself) is skipped. Posting a receive is
 * user-space work too. Posting a send is not critical: on Soft-RoCE ({@code rxe}) it rings the doorbell with a
 * {@code write(2)}, and a critical call must not make a system call (it holds off safepoints while it runs).
 * A handle bound without an address takes the function's address as its first argument, before the C arguments.
 * {@code ibv_req_notify_cq} is inline too, and bound the same way. All return an errno value or a count, never set
 * {@code errno}, and allocate nothing.
 */
final class VerbsDataPath {

    private static final Linker LINKER = Linker.nativeLinker();

    /** {@code int poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)}. */
    static final MethodHandle POLL_CQ = LINKER.downcallHandle(
        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), Linker.Option.critical(false));

    /**
     * {@code int req_notify_cq(struct ibv_cq *cq, int solicited_only)}: not critical, as it makes a system call on
     * Soft-RoCE; called only by a loop about to sleep.
     */
    static final MethodHandle REQ_NOTIFY_CQ = LINKER.downcallHandle(
        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

    /** {@code int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)}. */
    static final MethodHandle POST_SEND = LINKER.downcallHandle(
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));

    /** {@code int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)}. */
    static final MethodHandle POST_RECV = LINKER.downcallHandle(
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), Linker.Option.critical(false));

    private VerbsDataPath() {
    }

    static int pollCq(final MemorySegment function, final MemorySegment cq, final int entries,
                      final MemorySegment wc) {
        try {
            return (int) POLL_CQ.invokeExact(function, cq, entries, wc);
        } catch (final Throwable ex) {
            throw new IllegalStateException("ibv_poll_cq failed", ex);
        }
    }

    static int reqNotifyCq(final MemorySegment function, final MemorySegment cq) {
        try {
            return (int) REQ_NOTIFY_CQ.invokeExact(function, cq, 0);
        } catch (final Throwable ex) {
            throw new IllegalStateException("ibv_req_notify_cq failed", ex);
        }
    }

    static int postSend(final MemorySegment function, final MemorySegment qp, final MemorySegment wr,
                        final MemorySegment badWr) {
        try {
            return (int) POST_SEND.invokeExact(function, qp, wr, badWr);
        } catch (final Throwable ex) {
            throw new IllegalStateException("ibv_post_send failed", ex);
        }
    }

    static int postRecv(final MemorySegment function, final MemorySegment qp, final MemorySegment wr,
                        final MemorySegment badWr) {
        try {
            return (int) POST_RECV.invokeExact(function, qp, wr, badWr);
        } catch (final Throwable ex) {
            throw new IllegalStateException("ibv_post_recv failed", ex);
        }
    }
}
