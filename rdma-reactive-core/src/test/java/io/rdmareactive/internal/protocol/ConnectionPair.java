package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ShmTestDirectories;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Two protocol connections over the shared-memory provider in one JVM, driven by the test's own thread
 * ({@link #pump()}), so that a test is single-threaded and deterministic.
 */
final class ConnectionPair implements AutoCloseable {

    final Path directory;
    final RdmaDevice serverDevice;
    final RdmaDevice clientDevice;
    final ProtocolConnection server;
    final ProtocolConnection client;

    private ConnectionPair(final Path directory, final RdmaDevice serverDevice, final RdmaDevice clientDevice,
                           final ProtocolConnection server, final ProtocolConnection client) {
        this.directory = directory;
        this.serverDevice = serverDevice;
        this.clientDevice = clientDevice;
        this.server = server;
        this.client = client;
    }

    static ConnectionPair open(final ProtocolOptions options) {
        return open(options, options);
    }

    /** A pair whose server and client are configured apart: the handshake agrees on what both use. */
    static ConnectionPair open(final ProtocolOptions serverOptions, final ProtocolOptions clientOptions) {
        return open(serverOptions, clientOptions, true);
    }

    /**
     * A pair without direct peer access ({@code directPeerAccess} false): every write is posted and completes, the
     * receiver reposts receives and grants them, as on verbs.
     */
    static ConnectionPair open(final ProtocolOptions options, final boolean directPeerAccess) {
        return open(options, options, directPeerAccess);
    }

    private static ConnectionPair open(final ProtocolOptions serverOptions, final ProtocolOptions clientOptions,
                                       final boolean directPeerAccess) {
        final Path directory = ShmTestDirectories.create();
        final DeviceOptions deviceOptions = DeviceOptions.builder().directory(directory)
            .property(io.rdmareactive.provider.shm.ShmProvider.DIRECT_PEER_ACCESS_PROPERTY,
                Boolean.toString(directPeerAccess)).build();
        final RdmaDevice serverDevice = RdmaProviders.named("shm").open(deviceOptions);
        final RdmaDevice clientDevice = RdmaProviders.named("shm").open(deviceOptions);
        try (Listener listener = serverDevice.listen("protocol")) {
            final CompletableFuture<ProtocolConnection> accepted = CompletableFuture.supplyAsync(() -> {
                final ConnectRequest request = listener.accept(Duration.ofSeconds(10));
                return ConnectionEstablishment.accept(serverDevice, request, serverOptions);
            });
            final ProtocolConnection client = ConnectionEstablishment.connect(clientDevice, "protocol", clientOptions,
                Duration.ofSeconds(10));
            return new ConnectionPair(directory, serverDevice, clientDevice, accepted.get(), client);
        } catch (final InterruptedException | ExecutionException ex) {
            serverDevice.close();
            clientDevice.close();
            throw new IllegalStateException(ex);
        }
    }

    /** Runs both duty cycles until neither has work. */
    int pump() {
        int total = 0;
        int work;
        do {
            final long now = System.nanoTime();
            work = server.doWork(now) + client.doWork(now);
            total += work;
        } while (work > 0);
        return total;
    }

    @Override
    public void close() {
        client.close();
        server.close();
        clientDevice.close();
        serverDevice.close();
        ShmTestDirectories.delete(directory);
    }
}
