package io.rdmareactive.perf.compare;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

/**
 * A peer-kill peer over rdma-reactive's public API, configured as {@code transport}'s servers and clients are (the
 * library's default liveness): a server whose handler checks what {@code Inbound.receiveViews()} delivers, and per
 * other peer a connection whose {@code Outbound.send} drains a bounded sink. A failure is what the API says: an
 * error or end of an inbound stream, an error of a send, the end of a connection ({@code onDispose()}).
 */
final class FluxPeerNode implements PeerNode {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final ReactiveTransport transport;
    private final int size;
    private final PeerLedger ledger;
    private final String address;
    private final DisposableServer server;
    private final Connection[] connections;
    private final Sinks.Many<DirectBuffer>[] sinks;
    private final boolean[] failed;

    @SuppressWarnings({"unchecked", "rawtypes"})
    FluxPeerNode(final ReactiveTransport transport, final String address, final int peers, final int size,
                 final PeerLedger ledger) {
        this.transport = transport;
        this.size = size;
        this.ledger = ledger;
        this.address = address;
        this.connections = new Connection[peers];
        this.sinks = new Sinks.Many[peers];
        this.failed = new boolean[peers];
        this.server = transport.server(address, size).handle((in, out) -> {
            final AtomicInteger source = new AtomicInteger(-1);
            return in.receiveViews().doOnNext(view -> {
                if (source.get() < 0 && view.capacity() == size) {
                    source.set(view.getInt(PeerLedger.SOURCE_OFFSET));
                }
                ledger.onMessage(view, 0, view.capacity());
            }).doOnError(error -> report(source.get(), "inbound error: " + error))
                .doOnComplete(() -> report(source.get(), "inbound completed")).then();
        }).bind().block(TIMEOUT);
    }

    private void report(final int peer, final String how) {
        if (peer >= 0) {
            ledger.failed(peer, how);
        }
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public void connect(final int peer, final String where) {
        final Connection connection = transport.client(where, size).connect().block(TIMEOUT);
        final Sinks.Many<DirectBuffer> sink = Sinks.many().unicast()
            .onBackpressureBuffer(Queues.<DirectBuffer>get(256).get());
        connections[peer] = connection;
        sinks[peer] = sink;
        connection.outbound().send(sink.asFlux(), Codecs.DIRECT_BUFFER)
            .subscribe(null, error -> fail(peer, "outbound send error: " + error));
        connection.onDispose().subscribe(null, error -> fail(peer, "connection ended: " + error),
            () -> fail(peer, "connection closed"));
    }

    private void fail(final int peer, final String how) {
        failed[peer] = true;
        ledger.failed(peer, how);
    }

    @Override
    public boolean offer(final int peer, final DirectBuffer buffer, final int length) {
        if (failed[peer]) {
            return false;
        }
        final byte[] copy = new byte[length];
        buffer.getBytes(0, copy);
        final Sinks.EmitResult result = sinks[peer].tryEmitNext(new UnsafeBuffer(copy));
        if (result.isSuccess()) {
            return true;
        }
        if (result != Sinks.EmitResult.FAIL_OVERFLOW) {
            fail(peer, "Outbound.send cancelled its source (" + result + ")");
        }
        return false;
    }

    @Override
    public void close() {
        for (final Connection connection : connections) {
            if (connection != null) {
                connection.dispose();
            }
        }
        server.dispose();
    }
}
