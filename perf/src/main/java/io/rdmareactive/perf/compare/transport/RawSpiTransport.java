package io.rdmareactive.perf.compare.transport;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProvider;
import io.rdmareactive.spi.RdmaProviders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * rdma-reactive's raw path: the provider SPI itself (the layer under the protocol), driven directly by the
 * comparison's threads with no protocol, driver or reactive layer in between. Each message is one RDMA WRITE WITH
 * IMMEDIATE into a slot of the peer's registered region, sent from the client thread; the server thread polls the
 * completion queue and either writes the message back (echo) or hands the slot to the consumer in place and returns
 * credit (an 8-byte write with immediate) every quarter window. The window is the slot count, so the sender can
 * never overwrite a slot the consumer has not finished with.
 */
public final class RawSpiTransport implements Transport {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicInteger LISTENERS = new AtomicInteger();

    private final RdmaProvider provider;
    private final Idle idle;
    private final RdmaDevice serverDevice;
    private final RdmaDevice clientDevice;
    private final VerbsNodes verbs;

    /**
     * @param providerName {@code shm} or {@code verbs}
     * @param directory    the shared-memory provider's directory
     * @param address      the listening address for verbs (IP:port), {@code null} for shm
     */
    public RawSpiTransport(final String providerName, final Idle idle, final Path directory, final String address) {
        this(providerName, idle, directory, address == null ? null : VerbsNodes.oneDevice(address));
    }

    /**
     * Over verbs: the server side opens {@code verbs}' server device, the client side its client device (the default
     * device twice where none is named).
     *
     * @param providerName {@code verbs}
     * @param verbs        the listening address and the devices
     */
    public RawSpiTransport(final String providerName, final Idle idle, final VerbsNodes verbs) {
        this(providerName, idle, null, java.util.Objects.requireNonNull(verbs, "verbs"));
    }

    private RawSpiTransport(final String providerName, final Idle idle, final Path directory, final VerbsNodes verbs) {
        this.provider = RdmaProviders.named(providerName);
        this.idle = idle;
        this.verbs = verbs;
        if (verbs == null) {
            final DeviceOptions options = DeviceOptions.builder().directory(directory).build();
            this.serverDevice = provider.open(options);
            this.clientDevice = provider.open(options);
        } else {
            this.serverDevice = provider.open(device(verbs.serverDevice()));
            try {
                this.clientDevice = provider.open(device(verbs.clientDevice()));
            } catch (final RuntimeException | Error ex) {
                serverDevice.close();
                throw ex;
            }
        }
    }

    /** @return the options that open {@code name}, or the default device for null */
    private static DeviceOptions device(final String name) {
        return name == null ? DeviceOptions.defaults() : DeviceOptions.builder().deviceName(name).build();
    }

    @Override
    public String name() {
        return "rr-" + provider.name() + "-raw";
    }

    @Override
    public String setup() {
        return "rdma-reactive provider SPI ('" + provider.name() + "' provider, no protocol/driver/reactive layer): "
            + "RDMA WRITE WITH IMMEDIATE posted from the client thread into the peer's slots, completions polled "
            + "by the client thread and by one server thread (" + idle + "); credit every quarter window"
            + (verbs != null && verbs.twoDevices() ? "; the server side on " + verbs.serverDevice() + ", the client "
            + "side on " + verbs.clientDevice() + ": every connection crosses the link" : "");
    }

    @Override
    public Session open(final SessionSpec spec) throws Exception {
        final String where = verbs != null ? verbs.nextServerAddress()
            : "perf-raw-" + ProcessHandle.current().pid() + "-" + LISTENERS.incrementAndGet();
        final List<RawEndpoint> servers = new ArrayList<>();
        final List<RawEndpoint> clients = new ArrayList<>();
        try (Listener listener = serverDevice.listen(where)) {
            for (int stream = 0; stream < spec.streams(); stream++) {
                final RawEndpoint client = new RawEndpoint(clientDevice, spec.messageLength());
                clients.add(client);
                final CompletableFuture<QueuePair> connecting = CompletableFuture.supplyAsync(
                    () -> clientDevice.connect(listener.address(), client.options(), client.info(), TIMEOUT));
                final ConnectRequest request = listener.accept(TIMEOUT);
                if (request == null) {
                    throw new IllegalStateException(name() + ": no connect request within " + TIMEOUT);
                }
                final RawEndpoint server = new RawEndpoint(serverDevice, spec.messageLength());
                servers.add(server);
                server.connected(request.accept(server.options(), server.info()), request.privateData());
                final QueuePair clientPair = connecting.get();
                client.connected(clientPair, clientPair.peerPrivateData());
            }
        } catch (final Exception | Error ex) {
            clients.forEach(RawEndpoint::close);
            servers.forEach(RawEndpoint::close);
            throw ex;
        }
        return new RawSession(spec, clients, servers);
    }

    @Override
    public void close() {
        clientDevice.close();
        serverDevice.close();
    }

    private final class RawSession implements Session {

        private final List<RawEndpoint> clients;
        private final List<RawEndpoint> servers;
        private final List<Link> links = new ArrayList<>();
        private final PollingServer serverThread;

        RawSession(final SessionSpec spec, final List<RawEndpoint> clients, final List<RawEndpoint> servers) {
            this.clients = clients;
            this.servers = servers;
            final List<ServerStream> streams = new ArrayList<>();
            for (int stream = 0; stream < spec.streams(); stream++) {
                streams.add(new ServerStream(servers.get(stream), spec, stream));
                links.add(spec.echo() ? new EchoLink(clients.get(stream), spec.replies())
                    : new CreditLink(clients.get(stream)));
            }
            this.serverThread = new PollingServer(name() + "-server", idle.newStrategy(), () -> {
                int work = 0;
                for (final ServerStream stream : streams) {
                    work += stream.doWork();
                }
                return work;
            });
        }

        @Override
        public Link link(final int stream) {
            return links.get(stream);
        }

        @Override
        public void close() {
            serverThread.close();
            clients.forEach(RawEndpoint::disconnect);
            clients.forEach(RawEndpoint::close);
            servers.forEach(RawEndpoint::close);
        }
    }

    /** The server side of a stream: echoes, or consumes in place and returns credit. */
    private static final class ServerStream {

        private final RawEndpoint endpoint;
        private final boolean echo;
        private final int length;
        private final MessageHandler consumer;
        private final int creditEvery;
        private final IdleStrategy retry = Idle.YIELDING.newStrategy();
        private long consumed;
        private long credited;

        ServerStream(final RawEndpoint endpoint, final SessionSpec spec, final int stream) {
            this.endpoint = endpoint;
            this.echo = spec.echo();
            this.length = spec.messageLength();
            this.consumer = echo ? null : spec.consumers().apply(stream);
            this.creditEvery = Math.max(1, endpoint.slots / 4);
        }

        int doWork() {
            int work = endpoint.poll();
            while (endpoint.hasArrival()) {
                final int sequence = endpoint.nextArrival();
                final int offset = endpoint.slotOffset(sequence);
                if (echo) {
                    awaitSendRoom();
                    endpoint.write(offset, length, sequence);
                } else {
                    consumer.onMessage(endpoint.buffer, offset, length);
                    if (++consumed - credited >= creditEvery) {
                        credited = consumed;
                        endpoint.buffer.putLong(endpoint.controlOffset(), consumed);
                        awaitSendRoom();
                        endpoint.write(endpoint.controlOffset(), Long.BYTES, (int) consumed);
                    }
                }
                work++;
            }
            return work;
        }

        private void awaitSendRoom() {
            retry.reset();
            while (!endpoint.canWrite()) {
                endpoint.poll();
                retry.idle();
            }
        }
    }

    /** The client side of an echo stream: writes a message, polls for its echo. */
    private record EchoLink(RawEndpoint endpoint, MessageHandler replies) implements Link {

        @Override
        public boolean offer(final DirectBuffer buffer, final int offset, final int length) {
            return send(endpoint, buffer, offset, length);
        }

        @Override
        public int poll() {
            final int work = endpoint.poll();
            while (endpoint.hasArrival()) {
                final int sequence = endpoint.nextArrival();
                replies.onMessage(endpoint.buffer, endpoint.slotOffset(sequence), endpoint.slotSize);
            }
            return work;
        }
    }

    /** The client side of a consumed stream: writes while it has credit, polls for credit and send completions. */
    private static final class CreditLink implements Link {

        private final RawEndpoint endpoint;
        private long credit;

        CreditLink(final RawEndpoint endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public boolean offer(final DirectBuffer buffer, final int offset, final int length) {
            if (endpoint.sent - credit >= endpoint.slots) {
                poll();
                if (endpoint.sent - credit >= endpoint.slots) {
                    return false;
                }
            }
            return send(endpoint, buffer, offset, length);
        }

        @Override
        public int poll() {
            final int work = endpoint.poll();
            while (endpoint.hasArrival()) {
                endpoint.nextArrival();
                credit = endpoint.buffer.getLongVolatile(endpoint.controlOffset());
            }
            return work;
        }
    }

    private static boolean send(final RawEndpoint endpoint, final DirectBuffer buffer, final int offset,
                                final int length) {
        if (!endpoint.canWrite()) {
            endpoint.poll();
            if (!endpoint.canWrite()) {
                return false;
            }
        }
        final int sequence = (int) endpoint.sent;
        final int slot = endpoint.slotOffset(sequence);
        endpoint.buffer.putBytes(slot, buffer, offset, length);
        endpoint.write(slot, length, sequence);
        endpoint.sent++;
        return true;
    }
}
