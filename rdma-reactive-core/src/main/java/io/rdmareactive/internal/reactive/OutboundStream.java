package io.rdmareactive.internal.reactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.internal.protocol.MessageFragmenter;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Scheduler;

/**
 * Sends a publisher's elements on one stream. Upstream is asked only for as many elements as the peer's consumer
 * has requested (REQUEST_N) and never for more than {@link #BATCH} at a time; each element is encoded straight into
 * the send ring's claimed space (or, when larger than a frame, fragmented). A full ring holds the element back until
 * the peer returns credit, which is back-pressure, not buffering: at most {@link #BATCH} elements wait.
 *
 * <p>All ring work runs on the connection's worker, never on the driver thread and never on two threads at once.
 *
 * @param <T> what the codec encodes
 */
public final class OutboundStream<T> implements CoreSubscriber<T>, Runnable {

    /** The most elements requested from upstream and not yet sent. */
    static final int BATCH = 64;

    private final ProtocolConnection connection;
    private final ProtocolStream stream;
    private final Codec<T> codec;
    private final Scheduler.Worker worker;
    private final ErrorFactory errors;
    private final MonoSink<Void> sink;
    private final ManyToOneConcurrentArrayQueue<T> pending = new ManyToOneConcurrentArrayQueue<>(BATCH);
    private final AtomicInteger wip = new AtomicInteger();
    private final AtomicLong outstanding = new AtomicLong();
    private final AtomicBoolean finished = new AtomicBoolean();
    private final MessageFragmenter fragmenter;
    private final int maxMessageLength;

    private volatile Subscription upstream;
    private volatile boolean upstreamDone;
    private volatile Throwable upstreamError;
    private volatile boolean cancelled;
    private ExpandableDirectByteBuffer scratch;
    /** COMPLETE or ERROR is committed: the send finishes once the peer has consumed it (worker only). */
    private boolean ended;
    private Throwable endedWith;

    private OutboundStream(final ProtocolConnection connection, final ProtocolStream stream, final Codec<T> codec,
                           final Scheduler.Worker worker, final ErrorFactory errors, final MonoSink<Void> sink) {
        this.connection = connection;
        this.stream = stream;
        this.codec = codec;
        this.worker = worker;
        this.errors = errors;
        this.sink = sink;
        this.fragmenter = new MessageFragmenter(stream);
        this.maxMessageLength = connection.options().maxMessageLength();
    }

    /**
     * Starts sending: subscribes to the source and completes the sink once the peer has consumed everything sent and
     * the end of the stream (so that closing the connection then loses nothing); fails it when the source fails (the
     * peer is told, and has consumed that too), the connection ends first, or an element cannot be encoded.
     *
     * @return the sender, to be signalled when the stream's producer may do more
     */
    public static <T> OutboundStream<T> start(final ProtocolConnection connection, final ProtocolStream stream,
                                              final Publisher<? extends T> source, final Codec<T> codec,
                                              final Scheduler.Worker worker, final ErrorFactory errors,
                                              final MonoSink<Void> sink) {
        final OutboundStream<T> sender = new OutboundStream<>(connection, stream, codec, worker, errors, sink);
        sink.onCancel(sender::cancel);
        source.subscribe(sender);
        return sender;
    }

    @Override
    public void onSubscribe(final Subscription subscription) {
        this.upstream = subscription;
        signal();
    }

    @Override
    public void onNext(final T element) {
        outstanding.decrementAndGet();
        if (!pending.offer(element)) {
            // upstream sent more than it was asked for: a Reactive Streams violation
            onError(new IllegalStateException("the publisher sent more elements than were requested"));
            return;
        }
        signal();
    }

    @Override
    public void onError(final Throwable error) {
        upstreamError = error;
        upstreamDone = true;
        signal();
    }

    @Override
    public void onComplete() {
        upstreamDone = true;
        signal();
    }

    private void cancel() {
        cancelled = true;
        final Subscription subscription = upstream;
        if (subscription != null) {
            subscription.cancel();
        }
    }

    /** Something happened (demand, ring space, upstream signals, the connection ended): drain on the worker. */
    public void signal() {
        if (wip.getAndIncrement() == 0) {
            worker.schedule(this);
        }
    }

    @Override
    public void run() {
        int missed = 1;
        while (true) {
            drain();
            missed = wip.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    private void drain() {
        if (finished.get()) {
            return;
        }
        if (cancelled) {
            finish(null);
            return;
        }
        if (ended && stream.isFlushed()) {
            finish(endedWith); // the peer has consumed everything, the end included
            return;
        }
        if (connection.isTerminated()) {
            cancel();
            finish(endedWith != null ? endedWith : errors.connectionFailed(connection.error() != null
                ? connection.error() : "the connection was closed"));
            return;
        }
        if (stream.isCancelledByPeer()) {
            cancel(); // the remote subscriber wants no more: stop quietly
            finish(endedWith);
            return;
        }
        if (ended) {
            return; // until the peer's credit covers the end of the stream
        }
        // what was held back by a full ring goes first, in order
        if (fragmenter.isSending() && fragmenter.send() == ProtocolStream.BACK_PRESSURED) {
            return;
        }
        T element;
        while ((element = pending.peek()) != null) {
            final int result = trySend(element);
            if (result == BACK_PRESSURED) {
                return;
            }
            pending.poll();
            if (result == FAILED || result == SENT_PARTLY) {
                return; // the rest of a fragmented message goes out when the ring has room
            }
        }
        if (upstreamDone) {
            final Throwable error = upstreamError;
            if (error != null
                ? stream.error(1, String.valueOf(error.getMessage() != null ? error.getMessage() : error))
                : stream.complete()) {
                ended = true; // finished once the peer's credit covers it (signalled as the producer is)
                endedWith = error;
            }
            return;
        }
        final Subscription subscription = upstream;
        if (subscription == null) {
            return;
        }
        final long canAsk = Math.min(stream.peerDemand(), BATCH) - pending.size() - outstanding.get();
        if (canAsk > 0) {
            outstanding.addAndGet(canAsk);
            subscription.request(canAsk);
        }
    }

    private static final int SENT = 0;
    private static final int BACK_PRESSURED = 1;
    private static final int FAILED = 2;

    private int trySend(final T element) {
        final int length;
        try {
            length = codec.encodedLength(element);
            if (length > maxMessageLength) {
                throw new IllegalArgumentException(codec.name() + " encoded a message of " + length
                    + " bytes, over the connection's maximum of " + maxMessageLength);
            }
            if (length <= stream.maxPayload()) {
                final int index = stream.claim(length);
                if (index == ProtocolStream.BACK_PRESSURED) {
                    return BACK_PRESSURED;
                }
                try {
                    codec.encode(element, stream.buffer(), index, length);
                } catch (final RuntimeException ex) {
                    stream.abort();
                    throw ex;
                }
                stream.commit(ProtocolStream.WHOLE);
                stream.tookDemand();
                return SENT;
            }
            if (scratch == null) {
                scratch = new ExpandableDirectByteBuffer(length);
            }
            codec.encode(element, scratch, 0, length);
        } catch (final RuntimeException ex) {
            cancel();
            stream.error(2, "the sender could not encode a message: " + ex.getMessage());
            finish(ex);
            return FAILED;
        }
        fragmenter.begin(scratch, 0, length);
        stream.tookDemand();
        return fragmenter.send() == ProtocolStream.BACK_PRESSURED ? SENT_PARTLY : SENT;
    }

    private static final int SENT_PARTLY = 3;

    private void finish(final Throwable error) {
        if (finished.compareAndSet(false, true)) {
            if (error != null) {
                sink.error(error);
            } else {
                sink.success();
            }
        }
    }
}
