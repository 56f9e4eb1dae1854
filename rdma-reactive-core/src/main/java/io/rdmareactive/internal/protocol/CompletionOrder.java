package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.QueuePair;

/**
 * The completions of one connection, taken in the order their work was posted: a reliable connection completes each
 * queue's work in order, so a completion that is not the one due was reordered, or one before it was lost, and the
 * connection ends. A receive's immediate advances its stream's receive ring (every frame it covers checked); a data
 * write's completion moves its stream's send ring on; a one-sided operation's is recorded for it
 * ({@link OneSidedQueue}), its error too; a flushed one waits for the device's event to say why. Loop
 * only; allocates nothing but the reason of an end.
 */
final class CompletionOrder implements CompletionHandler {

    private final ProtocolConnection connection;
    private final QueuePair queuePair;
    private final ProtocolStream[] streams;
    private final int maxStreams;
    /** The watch set's words ({@link WatchSet#active}): a completion brings its stream into this cycle. */
    private final long[] active;
    private final Liveness liveness;
    /** Where the sends were posted: their ids in post order ({@link Posting#sendIdsDue}), and how many. */
    private final Posting posting;
    private final long[] sendIdsDue;
    /** The application's one-sided operations: their completions are recorded there. */
    private final OneSidedQueue oneSided;
    private long sendsCompleted;
    private long receivesCompleted;

    /** @param streams the connection's streams, filled in before the first duty cycle */
    CompletionOrder(final ProtocolConnection connection, final QueuePair queuePair, final ProtocolStream[] streams,
                    final long[] active, final Liveness liveness, final Posting posting,
                    final OneSidedQueue oneSided) {
        this.connection = connection;
        this.queuePair = queuePair;
        this.streams = streams;
        this.maxStreams = streams.length;
        this.active = active;
        this.liveness = liveness;
        this.posting = posting;
        this.sendIdsDue = posting.sendIdsDue;
        this.oneSided = oneSided;
    }

    @Override
    public void onCompletion(final Completion completion) {
        if (completion.status() == CompletionStatus.WR_FLUSH_ERR) {
            // the queue pair already failed: the device's event says why (a disconnect is no error), so wait for it
            if (connection.flushedSinceNanos == 0) {
                connection.flushedSinceNanos = connection.nowNanos;
                connection.flushReason = "work requests were flushed: " + queuePair.errorReason();
            }
            return;
        }
        if (!completion.isSuccess()) {
            if (!completion.isReceive() && OneSidedQueue.isOneSided(completion.wrId()) && isDue(completion.wrId())) {
                // the operation hears what the adapter said of it; the connection ends all the same (its queue pair is
                // in the error state, as a reliable connection's is after a remote access error)
                sendsCompleted++;
                posting.outstandingSends--;
                oneSided.onFailed(completion.status(), CompletionStatus.name(completion.status()) + ": "
                    + CompletionStatus.explain(completion.status()) + (queuePair.errorReason() != null
                    ? " (" + queuePair.errorReason() + ")" : ""));
            }
            connection.fail("a work request failed with " + CompletionStatus.name(completion.status()) + ": "
                + CompletionStatus.explain(completion.status()) + (queuePair.errorReason() != null
                ? " (" + queuePair.errorReason() + ")" : ""));
            return;
        }
        if (completion.isReceive()) {
            if (completion.wrId() != receivesCompleted) {
                failOrder("receive", completion.wrId(), receivesCompleted);
                return;
            }
            receivesCompleted++;
            liveness.onReceived(connection.nowNanos);
            posting.receivesToRepost++;
            final int immediate = completion.immediate();
            final int stream = ImmediateCodec.streamId(immediate);
            if (stream >= maxStreams) {
                connection.fail(ProtocolError.describe(ProtocolError.UNKNOWN_STREAM) + " (" + stream + ")");
                return;
            }
            final StreamReceiveRing ring = streams[stream].receiveRing();
            final int code = ring.onAdvance(ImmediateCodec.advance(immediate));
            if (code != ProtocolError.NONE) {
                connection.fail(ProtocolError.describe(code, ring.frameCheck()) + " on stream " + stream);
                return;
            }
            WatchSet.activate(active, stream);
            if (stream > 0) {
                connection.activity.onFramesArrived(stream);
            }
            return;
        }
        final long wrId = completion.wrId();
        final long due = sendIdsDue[(int) (sendsCompleted & (sendIdsDue.length - 1))];
        if (sendsCompleted == posting.sendsAdded || wrId != due) {
            failOrder("send", wrId, sendsCompleted == posting.sendsAdded ? -1 : due);
            return;
        }
        sendsCompleted++;
        posting.outstandingSends--;
        if (OneSidedQueue.isOneSided(wrId)) {
            oneSided.onCompleted();
        } else if ((wrId & Posting.KIND_MASK) == Posting.KIND_DATA) {
            final int stream = (int) (wrId >>> 48) & 0x3FFF;
            final StreamSendRing ring = streams[stream].sendRing();
            final long sent = ring.sentPosition();
            // rebuild the 64-bit position from its low 48 bits, near what was sent
            final long position = (sent & ~Posting.POSITION_MASK) | (wrId & Posting.POSITION_MASK);
            ring.completedTo(position > sent ? position - (1L << 48) : position);
            WatchSet.activate(active, stream);
            if (stream > 0) {
                connection.activity.onProducerReady(stream);
            }
        }
    }

    /** @return true if {@code wrId} is the send due next */
    private boolean isDue(final long wrId) {
        return sendsCompleted != posting.sendsAdded
            && sendIdsDue[(int) (sendsCompleted & (sendIdsDue.length - 1))] == wrId;
    }

    private void failOrder(final String queue, final long wrId, final long due) {
        connection.fail("a completion was lost or came out of order: the " + queue + " completion of work request 0x"
            + Long.toHexString(wrId) + " arrived where " + (due < 0 ? "none" : "0x" + Long.toHexString(due))
            + " was due (a reliable connection completes each queue's work in order; the provider or adapter failed)");
    }
}
