package io.rdmareactive.internal.reactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.internal.protocol.FrameConsumer;
import io.rdmareactive.internal.protocol.MessageAssembler;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;

/**
 * The inbound side of one stream as a Reactive Streams publisher: messages are decoded in place from the receive
 * ring, on the connection's worker (never on the driver thread), and only as many as the subscriber requested.
 *
 * <p>Demand becomes credit on the wire: the subscriber's {@code request(n)} is granted to the peer as REQUEST_N, at
 * most {@code prefetch} messages ahead of what was delivered, so unbounded demand never reaches the wire. A message's
 * bytes are freed (and later returned to the peer as ring credit) only after {@code onNext} returns for it.
 *
 * @param <T> what the codec decodes
 */
public final class InboundStream<T> extends Flux<T> implements Subscription, Runnable, FrameConsumer {

    private final ProtocolConnection connection;
    private final ProtocolStream stream;
    private final Codec<T> codec;
    private final Scheduler.Worker worker;
    private final long prefetch;
    private final ErrorFactory errors;
    private final MessageAssembler assembler;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final AtomicLong requested = new AtomicLong();
    private final AtomicInteger wip = new AtomicInteger();

    private CoreSubscriber<? super T> subscriber;
    private volatile boolean cancelled;
    private boolean done;
    private long emitted;
    private long granted;
    private long delivered;
    private Throwable failure;

    /**
     * @param prefetch        the most messages granted to the peer ahead of delivery
     * @param errors          makes the exceptions subscribers get
     */
    public InboundStream(final ProtocolConnection connection, final ProtocolStream stream, final Codec<T> codec,
                         final Scheduler.Worker worker, final long prefetch, final ErrorFactory errors) {
        this.connection = connection;
        this.stream = stream;
        this.codec = codec;
        this.worker = worker;
        this.prefetch = prefetch;
        this.errors = errors;
        this.assembler = new MessageAssembler(connection.options().maxMessageLength(), this::onMessage);
    }

    @Override
    public void subscribe(final CoreSubscriber<? super T> actual) {
        if (!subscribed.compareAndSet(false, true)) {
            Operators.error(actual, new IllegalStateException("the inbound of stream " + stream.id()
                + " accepts one subscriber; share it with publish() or cache() if several need it"));
            return;
        }
        this.subscriber = actual;
        actual.onSubscribe(this);
        signal();
    }

    // ---------------------------------------------------------------------------------------------- subscription

    @Override
    public void request(final long n) {
        if (Operators.validate(n)) {
            requested.getAndAccumulate(n, Operators::addCap);
            signal();
        }
    }

    @Override
    public void cancel() {
        if (!cancelled) {
            cancelled = true;
            stream.cancel();
            signal();
        }
    }

    /** Something happened (frames arrived, the connection ended): drain on the worker. Safe from any thread. */
    public void signal() {
        if (wip.getAndIncrement() == 0) {
            worker.schedule(this);
        }
    }

    // ---------------------------------------------------------------------------------------------- drain

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
        if (cancelled) {
            done = true;
            subscriber = null; // §3.13: a cancelled subscription drops its subscriber
            return;
        }
        final CoreSubscriber<? super T> actual = subscriber;
        if (actual == null || done) {
            return;
        }
        grantCredit();
        while (!done && !cancelled && emitted < requested.get()) {
            if (!stream.poll(this)) {
                break;
            }
            if (assembler.error() != null) {
                stream.consumerError(assembler.error());
                terminate(errors.connectionFailed("protocol error: " + assembler.error()));
                return;
            }
        }
        if (done || cancelled) {
            return;
        }
        final int next = stream.peekType();
        if (next == ProtocolStream.COMPLETE || next == ProtocolStream.ERROR) {
            stream.poll(this); // terminal frames need no demand
            return;
        }
        if (next < 0 && connection.isTerminated()) {
            terminate(errors.connectionFailed(connection.error() != null ? connection.error()
                : "the connection was closed"));
            return;
        }
        grantCredit();
    }

    private void grantCredit() {
        final long demand = requested.get() - emitted;
        final long outstanding = granted - delivered;
        if (demand > outstanding && outstanding <= prefetch / 2) {
            final long grant = Math.min(demand - outstanding, prefetch - outstanding);
            if (grant > 0) {
                granted += grant;
                stream.request(grant);
            }
        }
    }

    @Override
    public void onFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                        final byte flags) {
        switch (type) {
            case ProtocolStream.DATA -> assembler.onFrame(buffer, index, length, type, flags);
            case ProtocolStream.COMPLETE -> {
                done = true;
                subscriber.onComplete();
            }
            case ProtocolStream.ERROR -> {
                final int code = length >= 8 ? buffer.getInt(index) : 0;
                final int textLength = length >= 8 ? Math.min(buffer.getInt(index + 4), length - 8) : 0;
                final byte[] text = new byte[Math.max(0, textLength)];
                buffer.getBytes(index + 8, text);
                terminate(errors.remoteError(code, new String(text, StandardCharsets.UTF_8)));
            }
            default -> {
                // other types never reach a data stream's consumer
            }
        }
    }

    private void onMessage(final DirectBuffer buffer, final int index, final int length) {
        delivered++;
        final T value;
        try {
            value = codec.decode(buffer, index, length);
        } catch (final RuntimeException ex) {
            stream.cancel();
            terminate(ex);
            return;
        }
        emitted++;
        subscriber.onNext(value);
    }

    private void terminate(final Throwable error) {
        if (!done) {
            done = true;
            failure = error;
            subscriber.onError(error);
        }
    }

    /** @return the error the stream ended with, if any */
    public Throwable failure() {
        return failure;
    }
}
