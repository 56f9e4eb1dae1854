package io.rdmareactive.internal.protocol;

import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Turns the frames of one stream back into messages: a whole message is handed on in place, in the ring; fragments
 * are gathered in a direct buffer of this stream that grows (doubling) up to the connection's maximum message length,
 * each growth taken from the runtime's {@link ReassemblyBudget} first, and is reused until {@link #release()}. A
 * fragment out of order, a message over the maximum, or a growth the budget or the JVM's direct memory refuses, is an
 * error of the stream ({@link #error()}), which ends its connection.
 */
public final class MessageAssembler implements FrameConsumer {

    /** Receives whole messages; the view is valid only during the call. */
    @FunctionalInterface
    public interface MessageHandler {
        void onMessage(DirectBuffer buffer, int index, int length);
    }

    private final int maxMessageLength;
    private final ReassemblyBudget budget;
    private final MessageHandler handler;
    /** Fragments gathered so far; made on the first fragmented message (a stream of whole frames never needs it). */
    private UnsafeBuffer gathered;
    private ByteBuffer memory;
    private int gatheredLength = -1;
    private String error;
    /** The error is this side's refusal (memory), not the peer's breach of the protocol. */
    private boolean refused;

    /** An assembler whose reassembly takes from a budget of its own, as large as one message (for tests). */
    public MessageAssembler(final int maxMessageLength, final MessageHandler handler) {
        this(maxMessageLength, new ReassemblyBudget(maxMessageLength), handler);
    }

    public MessageAssembler(final int maxMessageLength, final ReassemblyBudget budget, final MessageHandler handler) {
        this.maxMessageLength = maxMessageLength;
        this.budget = budget;
        this.handler = handler;
    }

    /** @return the error seen (a protocol error, or a refusal: see {@link #isProtocolError()}), or null */
    public String error() {
        return error;
    }

    /** @return true if {@link #error()} is the peer's breach of the protocol, false if it is this side's refusal */
    public boolean isProtocolError() {
        return error != null && !refused;
    }

    @Override
    public void onFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                        final byte flags) {
        if (error != null || type != FrameHeaderFlyweight.DATA) {
            return;
        }
        final boolean first = (flags & FrameHeaderFlyweight.FIRST) != 0;
        final boolean last = (flags & FrameHeaderFlyweight.LAST) != 0;
        if (first && last && gatheredLength < 0) {
            handler.onMessage(buffer, index, length);
            return;
        }
        if (first == (gatheredLength >= 0)) {
            error = first ? "a message began before the previous one ended" : "a fragment arrived outside a message";
            return;
        }
        if (first) {
            gatheredLength = 0;
        }
        if ((long) gatheredLength + length > maxMessageLength) {
            error = "a message grew past the maximum of " + maxMessageLength + " bytes";
            return;
        }
        if (gatheredLength + length > capacity() && !grow(gatheredLength + length)) {
            return;
        }
        gathered.putBytes(gatheredLength, buffer, index, length);
        gatheredLength += length;
        if (last) {
            final int messageLength = gatheredLength;
            gatheredLength = -1;
            handler.onMessage(gathered, 0, messageLength);
        }
    }

    /**
     * Grows the buffer to the power of two that holds {@code required} (at least 4 KiB, at most the maximum message
     * length), within the budget: a message of 8 MiB takes 8 MiB, not the 16 that doubling a 16 KiB frame's multiple
     * would.
     */
    private boolean grow(final int required) {
        final int current = capacity();
        final long power = Math.max(4096L, Long.highestOneBit(required - 1L) << 1);
        final int capacity = (int) Math.min(maxMessageLength, Math.max(required, power));
        final String over = budget.reserve(capacity - current);
        if (over != null) {
            refused = true;
            error = "reassembling a message of " + required + "+ bytes would pass the " + over;
            return false;
        }
        final ByteBuffer grown;
        try {
            grown = ByteBuffer.allocateDirect(capacity);
        } catch (final OutOfMemoryError ex) {
            budget.release(capacity - current);
            refused = true;
            error = "the JVM has no direct memory left to reassemble a message of " + required + "+ bytes ("
                + ex.getMessage() + "; -XX:MaxDirectMemorySize)";
            return false;
        }
        final UnsafeBuffer copy = new UnsafeBuffer(grown);
        if (gatheredLength > 0) {
            copy.putBytes(0, gathered, 0, gatheredLength);
        }
        final ByteBuffer old = memory;
        memory = grown;
        gathered = copy;
        if (old != null) {
            BufferUtil.free(old);
        }
        return true;
    }

    private int capacity() {
        return gathered == null ? 0 : gathered.capacity();
    }

    /** Frees the reassembly buffer and gives its memory back to the budget (the stream ended). Idempotent. */
    public void release() {
        if (memory != null) {
            budget.release(gathered.capacity());
            gathered.wrap(0, 0);
            BufferUtil.free(memory);
            memory = null;
        }
        gatheredLength = -1;
    }
}
