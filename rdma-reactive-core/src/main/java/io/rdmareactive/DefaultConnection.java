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
                this);
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
                sink);
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

    @Override
    public void onTerminated() {
        onFramesArrived(DEFAULT_STREAM);
        onProducerReady(DEFAULT_STREAM);
        if (protocol.error() != null) {
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

    @Override
    public void dispose() {
        if (!disposed.compareAndSet(false, true)) {
            return;
        }
        final String error = protocol.error();
        final Runnable release = () -> {
            worker.schedule(() -> {
                onFramesArrived(DEFAULT_STREAM); // let subscribers see the end
                onProducerReady(DEFAULT_STREAM);
                worker.schedule(() -> {
                    worker.dispose();
                    if (ownsRuntime) {
                        runtime.close();
                    }
                    if (error != null) {
                        closed.tryEmitError(new RdmaConnectionException("the connection to " + peer() + " ended: "
                            + error));
                    } else {
                        closed.tryEmitEmpty();
                    }
                });
            });
        };
        if (!runtime.driver.close(protocol, release)) {
            release.run();
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
