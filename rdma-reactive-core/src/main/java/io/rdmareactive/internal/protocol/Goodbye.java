package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.SendWorkRequest;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The goodbye of one connection as it ends: on a close on purpose, its last credit and the goodbye word written to
 * the peer and waited for before the disconnect; on any end, the peer's last credit read once more; and the account
 * of what this side committed and has not seen reach the peer's memory (flushed, undelivered). Loop only; cold path.
 */
final class Goodbye {

    /** The goodbye word's value once a side closes on purpose. */
    static final long GOODBYE = 1;
    /** How long close() waits for its last credit and goodbye writes to complete before it disconnects. */
    private static final long GOODBYE_WAIT_NANOS = 200_000_000L;

    private final ProtocolConnection connection;
    private final CompletionQueue completions;
    /** Takes the completions of the goodbye's writes while close() waits for them. */
    private final CompletionOrder completionOrder;
    private final QueuePair queuePair;
    /** The goodbye's writes are posted as the duty cycle's are, counted as in flight the same way. */
    private final Posting posting;
    private final SendWorkRequest sends;
    private final AtomicBuffer staging;
    private final ProtocolStream[] streams;
    private final int maxStreams;
    private final int ringCapacity;

    /** @param streams the connection's streams, filled in before the first duty cycle */
    Goodbye(final ProtocolConnection connection, final CompletionQueue completions,
            final CompletionOrder completionOrder, final QueuePair queuePair, final Posting posting,
            final ProtocolStream[] streams, final int ringCapacity) {
        this.connection = connection;
        this.completions = completions;
        this.completionOrder = completionOrder;
        this.queuePair = queuePair;
        this.posting = posting;
        this.sends = posting.sends;
        this.staging = posting.staging;
        this.streams = streams;
        this.maxStreams = streams.length;
        this.ringCapacity = ringCapacity;
    }

    /**
     * @return true when everything committed on every stream has been posted and its writes have completed: closing
     * now loses nothing this side sent
     */
    boolean isFlushed() {
        for (final ProtocolStream stream : streams) {
            if (!stream.sendRing().isFlushed()) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the messages this side committed to send and has not seen reach the peer's memory ("N message(s) (B
     *     bytes, on S stream(s)) committed to send", the bytes counting their streams' other frames too), or null if
     *     none (cold path: allocates)
     */
    String undelivered() {
        long bytes = 0;
        long messages = 0;
        int streamsWith = 0;
        for (final ProtocolStream stream : streams) {
            final long[] unconfirmed = stream.sendRing().unconfirmed();
            if (unconfirmed[0] > 0) {
                bytes += unconfirmed[0];
                messages += unconfirmed[1];
                streamsWith++;
            }
        }
        return messages == 0 ? null : messages + " message(s) (" + bytes + " bytes, on " + streamsWith + " stream(s)) "
            + "committed to send";
    }

    /**
     * Tells the peer, one last time, how far this side consumed: its sender learns that everything it sent, the end
     * of its stream included, arrived, even when this side closes right after consuming it.
     */
    void returnLastCredit() {
        if (connection.peerClosing || connection.peerClosed || connection.flushedSinceNanos != 0) {
            return; // the peer is gone or going: nothing would land, and its flushed writes would never complete
        }
        sends.clear();
        for (int s = 0; s < maxStreams && posting.room(1); s++) {
            posting.returnCredit(s);
        }
        if (posting.room(1)) {
            CheckedWord.write(staging, ConnectionLayout.GOODBYE_OFFSET, GOODBYE);
            posting.addWrite(Posting.KIND_GRANT | (posting.sendsAdded & Posting.POSITION_MASK),
                staging.addressOffset() + ConnectionLayout.GOODBYE_OFFSET, CheckedWord.LENGTH,
                ConnectionLayout.lineOffset(0, maxStreams, ringCapacity) + ConnectionLayout.GOODBYE_OFFSET);
        }
        if (sends.count() > 0 && queuePair.postSend(sends) == PostStatus.OK) {
            // an adapter moves the bytes after the post: wait (briefly) until they landed, so that the disconnect
            // cannot overtake them and the peer reads this goodbye before it sees the disconnect
            final long deadline = System.nanoTime() + GOODBYE_WAIT_NANOS;
            while (posting.outstandingSends > 0 && connection.error() == null && connection.flushedSinceNanos == 0
                && !connection.peerClosing && System.nanoTime() < deadline) {
                if (completions.poll(completionOrder, ProtocolConnection.COMPLETIONS_PER_POLL) == 0) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /**
     * Reads the peer's credit once more as the connection ends (the peer writes it before it disconnects), so that
     * a sender learns whether everything it sent was consumed. Called before the end becomes visible (the
     * connection's {@link ProtocolConnection#error() error} or its closed flag written), on the connection's loop.
     * Errors in it no longer matter.
     */
    void readLastCredit() {
        for (final ProtocolStream stream : streams) {
            stream.sendRing().refreshCredit();
        }
    }
}
