package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolStream;
import io.rdmareactive.internal.protocol.StreamActivity;
import io.rdmareactive.internal.reactive.ErrorFactory;
import io.rdmareactive.internal.reactive.InboundStream;
import io.rdmareactive.internal.reactive.OutboundStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A connection as the API shows it: the protocol connection, served by the runtime's driver, with its default
 * stream bridged to a {@link Flux} inbound and a sending {@link Mono} outbound. Reactive work runs on one worker of
 * Reactor's parallel scheduler, never on the driver thread.
 */
final class DefaultConnection implements Connection, Inbound, Outbound, StreamActivity, ErrorFactory {

    private static final int DEFAULT_STREAM = 1;

    private final RdmaRuntime runtime;
    private final boolean ownsRuntime;
    private final ProtocolConnection protocol;
    private final ProtocolStream stream;
    private final RdmaConfig config;
    private final Scheduler.Worker worker = Schedulers.parallel().createWorker();
    private final AtomicReference<InboundStream<?>> inbound = new AtomicReference<>();
    private final AtomicReference<OutboundStream<?>> outbound = new AtomicReference<>();
    private final AtomicBoolean disposed = new AtomicBoolean();
    /** Set on the worker when release starts: stream drains, which run on the worker too, stop touching the rings. */
    private volatile boolean released;
    private final Sinks.Empty<Void> closed = Sinks.empty();

    DefaultConnection(final RdmaRuntime runtime, final boolean ownsRuntime, final ProtocolConnection protocol,
                      final RdmaConfig config) {
        this.runtime = runtime;
        this.ownsRuntime = ownsRuntime;
        this.protocol = protocol;
        this.stream = protocol.stream(DEFAULT_STREAM);
        this.config = config;
        protocol.activity(this);
        if (!runtime.driver.add(protocol)) {
            throw new RdmaConnectionException("the driver's command queue is full; it is overloaded or stopped");
        }
    }

    @Override
    public Inbound inbound() {
        return this;
    }

    @Override
    public Outbound outbound() {
        return this;
    }

    @Override
    public String peer() {
        return protocol.queuePair().peerDescription();
    }

    @Override
    public Mono<Void> onDispose() {
        return closed.asMono();
    }

    // ------------------------------------------------------------------------------------------------ inbound

    @Override
    public <T> Flux<T> receive(final Codec<T> codec) {
        return Flux.defer(() -> {
            final InboundStream<T> created = new InboundStream<>(protocol, stream, codec, worker, config.prefetch(),
                this, () -> released, this::onInboundTerminated, runtime.counters);
            if (!inbound.compareAndSet(null, created)) {
                return Flux.error(new IllegalStateException("this connection's inbound already has a subscriber; "
                    + "share one Flux (publish(), cache()) if several need its messages"));
            }
            return created;
        });
    }

    @Override
    public Flux<DirectBuffer> receiveViews() {
        return receive(Codecs.reusableDirectBufferView());
    }

    // ------------------------------------------------------------------------------------------------ outbound

    @Override
    public <T> Mono<Void> send(final Publisher<? extends T> messages, final Codec<T> codec) {
        return Mono.create(sink -> {
            if (outbound.get() != null) {
                sink.error(new IllegalStateException("a send is already running on this connection; send one "
                    + "publisher at a time (concat them)"));
                return;
            }
            final OutboundStream<T> sender = OutboundStream.start(protocol, stream, messages, codec, worker, this,
                sink, () -> released, runtime.counters);
            outbound.set(sender);
            sender.signal();
        });
    }

    // ------------------------------------------------------------------------------------------------ driver

    @Override
    public void onFramesArrived(final int streamId) {
        final InboundStream<?> in = inbound.get();
        if (in != null) {
            in.signal();
        }
    }

    @Override
    public void onProducerReady(final int streamId) {
        final OutboundStream<?> out = outbound.get();
        if (out != null) {
            out.signal();
        }
    }

    /**
     * The connection ended (driver thread). Subscribers first get what already arrived (as far as they ask for it);
     * the memory is released once the inbound stream has ended, or at once if nobody subscribed.
     */
    @Override
    public void onTerminated() {
        if (protocol.error() != null) {
            runtime.counters.errors().increment();
        }
        onFramesArrived(DEFAULT_STREAM);
        onProducerReady(DEFAULT_STREAM);
        worker.schedule(() -> {
            final InboundStream<?> in = inbound.get();
            if (in == null || in.isTerminated()) {
                dispose();
            }
        });
    }

    private void onInboundTerminated() {
        if (protocol.isTerminated()) {
            dispose();
        }
    }

    @Override
    public Throwable connectionFailed(final String reason) {
        return new RdmaConnectionException("the connection to " + peer() + " ended: " + reason);
    }

    @Override
    public Throwable remoteError(final int code, final String message) {
        return new RdmaStreamException(code, "the peer's sender failed: " + message);
    }

    // ------------------------------------------------------------------------------------------------ disposal

    /**
     * Closes the connection: on the worker (after any drain running there) the streams stop touching the rings; the
     * driver then sends what was committed, closes the queue pair and frees the rings and registrations; the
     * subscribers and {@link #onDispose()} learn the outcome.
     */
    @Override
    public void dispose() {
        if (!disposed.compareAndSet(false, true)) {
            return;
        }
        worker.schedule(() -> {
            released = true;
            onFramesArrived(DEFAULT_STREAM); // subscribers see the end
            onProducerReady(DEFAULT_STREAM);
            final Runnable afterClose = () -> worker.schedule(this::finishDispose);
            if (!runtime.driver.close(protocol, config.livenessTimeout().toNanos(), afterClose)) {
                protocol.close(); // the driver is gone: nothing else can be touching the connection
                afterClose.run();
            }
        });
    }

    private void finishDispose() {
        final String error = protocol.error();
        worker.dispose();
        if (ownsRuntime) {
            runtime.close();
        }
        if (error != null) {
            closed.tryEmitError(connectionFailed(error));
        } else {
            closed.tryEmitEmpty();
        }
    }

    @Override
    public boolean isDisposed() {
        return disposed.get();
    }

    @Override
    public String toString() {
        return "Connection{" + peer() + '}';
    }
}
