package io.rdmareactive.internal.reactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.internal.driver.DriverCounters;
import io.rdmareactive.internal.driver.EventLoop;
import io.rdmareactive.internal.protocol.MessageFragmenter;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * Sends a publisher's elements on one stream. Upstream is asked only for as many elements as the peer's consumer
 * has requested (REQUEST_N), never for more than {@link #BATCH} at a time, and for large elements fewer
 * ({@link #BYTES_AHEAD}); each element is encoded straight into
 * the send ring's claimed space (or, when larger than a frame, fragmented). A full ring holds the element back until
 * the peer returns credit, which is back-pressure, not buffering: at most {@link #BATCH} elements wait.
 *
 * <p>Ring work runs on whichever thread wins the stream's work-in-progress counter, never on two threads at once:
 * the thread that emits an element (the caller's, as with Aeron's {@code offer}) encodes it straight into the send
 * ring inside the connection's {@link RingGuard}, and tells the loop, which posts it; when credit is short, the
 * element waits here until the loop sees credit and drains the rest on its own thread.
 *
 * @param <T> what the codec encodes
 */
public final class OutboundStream<T> implements CoreSubscriber<T>, Runnable {

    /** Where a send's end is told, once: on the thread that finished it (a producer's, or the loop). */
    public interface Completion {
        /** Every element and the end of the stream were committed (or the send was cancelled and ended). */
        void sent();

        /** The send failed: the source failed, the connection ended, or an element could not be encoded. */
        void failed(Throwable error);
    }

    /** The most elements requested from upstream and not yet sent. */
    static final int BATCH = 64;
    /**
     * The most bytes of elements requested from upstream and not yet sent, reckoned at the length of the messages sent
     * last: large messages are asked for fewer at a time (16 of 64 KiB, 2 of 1 MiB or more), so that a publisher that
     * makes its elements on request holds about that much of them, not {@link #BATCH} of the largest message.
     */
    static final int BYTES_AHEAD = 1 << 20;
    /** The fewest elements asked for at a time, whatever their size: one waits while another goes out in fragments. */
    static final int MIN_AHEAD = 2;

    private final ProtocolConnection connection;
    private final ProtocolStream stream;
    private final Codec<T> codec;
    private final EventLoop loop;
    private final RingGuard guard;
    private final ErrorFactory errors;
    private final Completion completion;
    private final BooleanSupplier released;
    private final DriverCounters counters;
    /**
     * Elements that arrived while another thread drained, or that a full ring held back: made on first need (a send of
     * one element at a time, a request or an answer, never needs it), then kept.
     */
    private volatile ManyToOneConcurrentArrayQueue<T> pending;
    /** Drains asked for: the thread that moves it from 0 drains, the others leave it one more pass. */
    private volatile int wip;
    /** Elements asked of upstream and not yet arrived. */
    private volatile long outstanding;
    private volatile boolean finished;
    /** Made on the first message larger than a frame (the draining thread's). */
    private MessageFragmenter fragmenter;
    private final int maxMessageLength;

    private volatile Subscription upstream;
    private volatile boolean upstreamDone;
    private volatile Throwable upstreamError;
    private volatile boolean cancelled;
    /** Where a message larger than a frame is encoded before its fragments are copied out, when its codec has no
     * {@link Codec#encodedBytes encoded bytes} to copy them from: on the heap, so that a stream use that sends one
     * leaves no direct memory waiting for the collector. */
    private ExpandableArrayBuffer scratch;
    /** An element onNext hands straight to the drain it runs itself (the drain's thread only). */
    private T held;
    /** The draining thread while it is inside upstream's request(n), whose onNext may come back on it; else null. */
    private volatile Thread requesting;
    private int openKind;
    private Publisher<? extends T> source;

    private OutboundStream(final ProtocolConnection connection, final ProtocolStream stream, final Codec<T> codec,
                           final EventLoop loop, final RingGuard guard, final ErrorFactory errors,
                           final Completion completion,
                           final BooleanSupplier released, final DriverCounters counters,
                           final int maxMessageLength) {
        this.connection = connection;
        this.stream = stream;
        this.codec = codec;
        this.loop = loop;
        this.guard = guard;
        this.errors = errors;
        this.completion = completion;
        this.released = released;
        this.counters = counters;
        this.maxMessageLength = maxMessageLength;
    }

    /**
     * Makes a sender that, once {@link #start()}ed, subscribes to the source and tells {@code completion} once
     * everything was sent and the stream ended, or that it failed: the source failed (the peer is told), the connection
     * ended, or an element could not be encoded. With {@code openKind} other than 0 it opens the stream first with an
     * OPEN frame. {@link #cancel()} stops it (the send then ends with COMPLETE, and completes). A message longer than
     * {@code maxMessageLength} fails the send.
     */
    public static <T> OutboundStream<T> create(final ProtocolConnection connection, final ProtocolStream stream,
                                               final int openKind, final Publisher<? extends T> source,
                                               final Codec<T> codec, final EventLoop loop, final RingGuard guard,
                                               final ErrorFactory errors, final Completion completion,
                                               final BooleanSupplier released, final DriverCounters counters,
                                               final int maxMessageLength) {
        final OutboundStream<T> sender = new OutboundStream<>(connection, stream, codec, loop, guard, errors,
            completion, released, counters, maxMessageLength);
        sender.openKind = openKind;
        sender.source = source;
        return sender;
    }

    /** Subscribes to the source. */
    public void start() {
        source.subscribe(this);
        signal();
    }

    @Override
    public void onSubscribe(final Subscription subscription) {
        java.util.Objects.requireNonNull(subscription, "subscription"); // Reactive Streams 2.13
        if (!UPSTREAM.compareAndSet(this, null, subscription)) {
            subscription.cancel(); // 2.5: a second subscription is cancelled, and never asked for anything
            return;
        }
        signal();
    }

    @SuppressWarnings("rawtypes") // a field updater names the class, which has no type arguments
    private static final java.util.concurrent.atomic.AtomicReferenceFieldUpdater<OutboundStream, Subscription>
        UPSTREAM = java.util.concurrent.atomic.AtomicReferenceFieldUpdater.newUpdater(OutboundStream.class,
        Subscription.class, "upstream");

    @Override
    public void onNext(final T element) {
        java.util.Objects.requireNonNull(element, "element"); // Reactive Streams 2.13
        if (requesting == Thread.currentThread() && held == null && queued() == 0) {
            // emitted from inside this thread's own request(n), in its drain: the drain takes it when request returns
            // (one more pass), not through the queue
            held = element;
            OUTSTANDING.getAndAdd(this, -1L);
            WIP.getAndAdd(this, 1);
            return;
        }
        if (held == null && outstanding > 0 && queued() == 0 && WIP.compareAndSet(this, 0, 1)) {
            // no drain runs anywhere and nothing waits: this thread drains, and the element goes to it directly, not
            // through the queue (onNext calls are serial: whatever arrives meanwhile is newer, and queues behind it)
            held = element;
            OUTSTANDING.getAndAdd(this, -1L);
            run();
            return;
        }
        // queue first, then count it as arrived: onNext may run on the publisher's thread while another drain computes
        // how much to ask for from pending + outstanding, and the other order let it see the element in neither
        // and ask for one more than the queue holds
        if (!queue().offer(element)) {
            // upstream sent more than it was asked for: a Reactive Streams violation
            onError(new IllegalStateException("the publisher sent more elements than were requested"));
            return;
        }
        OUTSTANDING.getAndAdd(this, -1L);
        signal();
    }

    @Override
    public void onError(final Throwable error) {
        java.util.Objects.requireNonNull(error, "error"); // Reactive Streams 2.13
        upstreamError = error;
        upstreamDone = true;
        signal();
    }

    @Override
    public void onComplete() {
        upstreamDone = true;
        signal();
    }

    /** Stops the send (any thread): the source is cancelled, and the stream's direction ends with COMPLETE. */
    public void cancel() {
        cancelled = true;
        final Subscription subscription = upstream;
        if (subscription != null) {
            subscription.cancel();
        }
    }

    /**
     * Something happened (demand, ring space, upstream signals, the connection ended): drain on this thread, unless
     * another thread is draining already (it then drains once more).
     */
    public void signal() {
        if ((int) WIP.getAndAdd(this, 1) == 0) {
            run();
        }
    }

    @Override
    public void run() {
        // inside the guard the rings stay mapped; outside it (the connection is closing) drain() touches no ring, as
        // it sees released first
        final boolean entered = guard.enter();
        try {
            int missed = 1;
            while (true) {
                drain();
                report();
                missed = (int) WIP.getAndAdd(this, -missed) - missed;
                if (missed == 0) {
                    break;
                }
            }
        } finally {
            if (entered) {
                guard.exit();
            }
        }
        if (!loop.inLoop()) {
            loop.notifyWork(); // committed frames wait for the loop to post them: wake it if it sleeps
        }
    }

    private void drain() {
        if (finished) {
            return;
        }
        if (connection.isTerminated() || released.getAsBoolean()) {
            if (cancelled) {
                finish(null);
                return;
            }
            cancel();
            finish(errors.connectionFailed(connection.endReason()));
            return;
        }
        if (stream.isCancelledByPeer() && openKind == 0) {
            cancel(); // the remote subscriber wants no more: stop, and end this direction so the stream can be reused
            if (stream.complete()) {
                finish(null);
            }
            return;
        }
        if (cancelled) {
            // the send was cancelled here: a cancel is no error, so end this direction with COMPLETE, so that the
            // peer's inbound ends and the stream can be used again. A send that was to open the stream opens it
            // first, even cancelled before anything went out: this side's use of the stream has begun, its inbound
            // waits for the peer's end of that use, and the peer learns of the use only from the OPEN
            if (openKind != 0) {
                if (!stream.open(openKind)) {
                    return; // no room yet: the peer's credit will signal
                }
                openKind = 0;
            }
            if (!stream.complete()) {
                return; // no room yet: the peer's credit will signal
            }
            finish(null);
            return;
        }
        if (openKind != 0) {
            if (!stream.open(openKind)) {
                return; // no room yet: the peer's credit will signal
            }
            openKind = 0;
        }
        // what was held back by a full ring goes first, in order
        if (isFragmenting() && fragmenter.send() == ProtocolStream.BACK_PRESSURED) {
            return;
        }
        if (held != null) {
            // handed over by onNext, the queue empty then: older than anything queued since, so it goes first; a full
            // ring keeps it held for the next drain
            final int result = trySend(held);
            if (result == BACK_PRESSURED) {
                counters.backPressureEvents().increment();
                return;
            }
            held = null;
            if (result == FAILED || result == SENT_PARTLY) {
                return;
            }
        }
        final ManyToOneConcurrentArrayQueue<T> queue = pending;
        T element;
        while (queue != null && (element = queue.peek()) != null) {
            final int result = trySend(element);
            if (result == BACK_PRESSURED) {
                counters.backPressureEvents().increment();
                return;
            }
            queue.poll();
            if (result == FAILED || result == SENT_PARTLY) {
                return; // the rest of a fragmented message goes out when the ring has room
            }
        }
        report();
        if (upstreamDone) {
            final Throwable error = upstreamError;
            if (error != null) {
                if (stream.error(1, String.valueOf(error.getMessage() != null ? error.getMessage() : error))) {
                    finish(error);
                }
            } else if (stream.complete()) {
                finish(null);
            }
            return;
        }
        final Subscription subscription = upstream;
        if (subscription == null) {
            return;
        }
        // outstanding first, then the queue: onNext (on any thread) queues first and counts it as arrived after, so
        // an element counted out of outstanding here is already in the queue; the other order can miss it in both
        // and ask for one more than the queue holds
        // asked for in batches, as Reactor's limitRate does: once what is queued and asked for has fallen to half of
        // what may be asked, the rest at once; one request(n) per element cost the publisher's drain per element
        final long asked = outstanding;
        final long target = Math.min(stream.peerDemand(), ahead);
        final long have = queued() + (held != null ? 1 : 0) + asked;
        final long canAsk = target - have;
        if (canAsk > 0 && have <= target >> 1) {
            OUTSTANDING.getAndAdd(this, canAsk);
            requesting = Thread.currentThread();
            try {
                subscription.request(canAsk);
            } finally {
                requesting = null;
            }
        } else if (stream.peerDemand() == 0 && outstanding == 0) {
            counters.creditStalls().increment(); // upstream could give more; the remote subscriber asked for none
        }
    }

    private boolean isFragmenting() {
        return fragmenter != null && fragmenter.isSending();
    }

    /** @return the queue, made now if this is its first use */
    private ManyToOneConcurrentArrayQueue<T> queue() {
        final ManyToOneConcurrentArrayQueue<T> queue = pending;
        if (queue != null) {
            return queue;
        }
        final ManyToOneConcurrentArrayQueue<T> made = new ManyToOneConcurrentArrayQueue<>(BATCH);
        return PENDING.compareAndSet(this, null, made) ? made : pending;
    }

    private int queued() {
        final ManyToOneConcurrentArrayQueue<T> queue = pending;
        return queue == null ? 0 : queue.size();
    }

    private static final VarHandle WIP;
    private static final VarHandle OUTSTANDING;
    private static final VarHandle FINISHED;
    private static final VarHandle PENDING;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            WIP = lookup.findVarHandle(OutboundStream.class, "wip", int.class);
            OUTSTANDING = lookup.findVarHandle(OutboundStream.class, "outstanding", long.class);
            FINISHED = lookup.findVarHandle(OutboundStream.class, "finished", boolean.class);
            PENDING = lookup.findVarHandle(OutboundStream.class, "pending", ManyToOneConcurrentArrayQueue.class);
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private static final int SENT = 0;
    private static final int BACK_PRESSURED = 1;
    private static final int FAILED = 2;

    private int trySend(final T element) {
        final int length;
        final DirectBuffer message;
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
                counted(length);
                return SENT;
            }
            // larger than a frame: copied out frame by frame, from the bytes the codec has, or else encoded first
            final DirectBuffer bytes = codec.encodedBytes(element);
            if (bytes == null) {
                if (scratch == null) {
                    scratch = new ExpandableArrayBuffer(length);
                }
                codec.encode(element, scratch, 0, length);
                message = scratch;
            } else if (bytes.capacity() < length) {
                throw new IllegalStateException(codec.name() + " gave " + bytes.capacity()
                    + " bytes as the encoding of a message of " + length);
            } else {
                message = bytes;
            }
        } catch (final RuntimeException ex) {
            // stop the publisher, and end the stream with the error (written by drain, which retries on a full ring)
            final Subscription subscription = upstream;
            if (subscription != null) {
                subscription.cancel();
            }
            final ManyToOneConcurrentArrayQueue<T> queue = pending;
            if (queue != null) {
                queue.clear();
            }
            upstreamError = new IllegalStateException("the sender could not encode a message: " + ex.getMessage(), ex);
            upstreamDone = true;
            signal();
            return FAILED;
        }
        if (fragmenter == null) {
            fragmenter = new MessageFragmenter(stream);
        }
        fragmenter.begin(message, 0, length);
        counted(length);
        return fragmenter.send() == ProtocolStream.BACK_PRESSURED ? SENT_PARTLY : SENT;
    }

    private static final int SENT_PARTLY = 3;

    /** Messages and bytes sent and not yet told to the stream's demand and the counters (the draining thread's). */
    private long unreportedMessages;
    private long unreportedBytes;

    private void counted(final int length) {
        unreportedMessages++;
        unreportedBytes += length;
    }

    /**
     * How many elements to keep asked for: {@link #BYTES_AHEAD} at the mean length of the messages the last drain sent,
     * {@link #MIN_AHEAD} before the first (the draining thread's).
     */
    private int ahead = MIN_AHEAD;

    /**
     * Takes what was sent off the peer's demand and adds it to the counters: once per drain rather than per message
     * (each is an atomic read-modify-write); before the demand is read again, and while the guard is held.
     */
    private void report() {
        if (unreportedMessages > 0) {
            final long averageLength = unreportedBytes / unreportedMessages;
            ahead = averageLength == 0 ? BATCH : Math.clamp(BYTES_AHEAD / averageLength, MIN_AHEAD, BATCH);
            stream.tookDemand(unreportedMessages);
            counters.messagesSent().getAndAdd(unreportedMessages);
            counters.bytesSent().getAndAdd(unreportedBytes);
            unreportedMessages = 0;
            unreportedBytes = 0;
        }
    }

    private void finish(final Throwable error) {
        if (FINISHED.compareAndSet(this, false, true)) {
            if (error != null) {
                completion.failed(error);
            } else {
                completion.sent();
            }
        }
    }

    /** @return true once the send ended: everything sent and the stream's direction ended, or it failed (any thread) */
    public boolean isFinished() {
        return finished;
    }

    /** @return the send's state, for diagnostics */
    @Override
    public String toString() {
        return "send[" + (finished ? "finished" : cancelled ? "cancelled" : upstreamDone ? "source done" : "running")
            + (openKind != 0 ? ", OPEN not sent" : "") + ", asked " + outstanding + (held != null ? ", 1 held" : "")
            + ", queued " + queued() + "]";
    }
}
