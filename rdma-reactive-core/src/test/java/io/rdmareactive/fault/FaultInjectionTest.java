package io.rdmareactive.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.internal.protocol.ConnectionEstablishment;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolOptions;
import io.rdmareactive.internal.protocol.ProtocolStream;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each fault of {@link Fault}, injected under one connection of a server that serves two: the faulty connection
 * either recovers and loses nothing (where the protocol promises it) or ends with an error that names the fault;
 * the other connection carries every message, in order, checksummed; afterwards no registration, file or thread is
 * left. Seeds come from {@code -Dfault.seeds=N} (seeds 1 to N; 2 by default) or {@code -Dfault.seed=S} (that one
 * seed, to replay a failure); each case prints the fault, the seed and what happened.
 */
class FaultInjectionTest {

    /** Messages each way on each connection. */
    private static final int MESSAGES = 600;
    private static final ProtocolOptions OPTIONS = new ProtocolOptions(4, 8192, 1 << 20, Duration.ofMillis(50),
        Duration.ofSeconds(5));

    /** What a fault's error must name. */
    static String expectedError(final Fault fault) {
        return switch (fault) {
            case DROP_COMPLETION, REORDER_COMPLETIONS_OF_ONE_QUEUE -> "a completion was lost or came out of order";
            case FAIL_POST_SEND -> "posting to the queue pair failed: INVALID(EINVAL)";
            case FAIL_POST_RECEIVE -> "posting receives failed: INVALID(EINVAL)";
            case QUEUE_PAIR_ERROR -> "the connection failed: the adapter moved queue pair";
            default -> throw new IllegalArgumentException(fault + " is recoverable");
        };
    }

    static Stream<Arguments> cases() {
        final Long one = Long.getLong("fault.seed");
        final List<Long> seeds = new ArrayList<>();
        if (one != null) {
            seeds.add(one);
        } else {
            for (long seed = 1; seed <= Integer.getInteger("fault.seeds", 2); seed++) {
                seeds.add(seed);
            }
        }
        return Stream.of(Fault.values()).flatMap(fault -> seeds.stream().map(seed -> Arguments.of(fault, seed)));
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void theFaultyConnectionRecoversOrEndsNamingTheFaultAndTheOtherIsUndisturbed(final Fault fault, final long seed)
        throws Exception {
        run(fault, seed, "shm", "served");
    }

    /**
     * The scenario over a provider: {@code shm} (a directory of its own, checked empty afterwards) or {@code verbs}
     * ({@link VerbsFaultInjectionTest}, at {@code address}).
     */
    static void run(final Fault fault, final long seed, final String provider, final String address)
        throws Exception {
        final Set<Thread> threadsBefore = Thread.getAllStackTraces().keySet();
        final boolean shm = "shm".equals(provider);
        final Path directory = shm ? Files.createTempDirectory(Path.of("/tmp"), "rr") : null;
        final DeviceOptions deviceOptions = shm ? DeviceOptions.builder().directory(directory).build()
            : DeviceOptions.defaults();
        final FaultInjector injector = new FaultInjector(fault, seed);
        final RdmaDevice server = RdmaProviders.named(provider).open(deviceOptions);
        final RdmaDevice honestClient = RdmaProviders.named(provider).open(deviceOptions);
        final FaultInjectingDevice faultyClient = new FaultInjectingDevice(RdmaProviders.named(provider)
            .open(deviceOptions), injector);
        final List<RdmaDevice> devices = List.of(server, honestClient, faultyClient);
        final Peer honestServerSide;
        final Peer honestClientSide;
        final Peer faultyServerSide;
        final Peer faultyClientSide;
        try (Listener listener = server.listen(address)) {
            honestServerSide = accept(server, listener, honestClient, "honest", address);
            honestClientSide = honestServerSide.partner;
            faultyServerSide = accept(server, listener, faultyClient, "faulty", address);
            faultyClientSide = faultyServerSide.partner;
        }
        final List<Peer> peers = List.of(honestServerSide, honestClientSide, faultyServerSide, faultyClientSide);

        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a safety net, not a measurement
        while (System.nanoTime() < deadline) {
            final long now = System.nanoTime();
            for (final Peer peer : peers) {
                peer.offer();
                peer.connection.doWork(now);
                peer.drain();
            }
            for (final RdmaDevice device : devices) {
                device.pollEvents(event -> route(event, peers), 16);
            }
            final boolean honestDone = honestServerSide.done() && honestClientSide.done();
            final boolean faultyDone = fault.recoverable()
                ? faultyServerSide.done() && faultyClientSide.done() || faultyClientSide.connection.isTerminated()
                : faultyClientSide.connection.isTerminated() && faultyServerSide.connection.isTerminated();
            if (honestDone && faultyDone) {
                break;
            }
        }
        System.out.println("fault " + fault + " seed " + seed + " over " + provider + ": injected: " + injector.injected() + "; faulty "
            + "connection: " + (faultyClientSide.connection.error() == null ? "recovered, " + faultyClientSide.received
            + " and " + faultyServerSide.received + " messages received" : faultyClientSide.connection.error())
            + "; its peer: " + faultyServerSide.connection.endReason());

        assertThat(injector.injected()).as("the fault struck").isNotNull();
        for (final Peer peer : List.of(honestServerSide, honestClientSide)) {
            assertThat(peer.problem).as("what " + peer + " received").isNull();
            assertThat(peer.received).as("messages " + peer + " received").isEqualTo(MESSAGES);
            assertThat(peer.connection.error()).as(peer + "'s error").isNull();
        }
        if (fault.recoverable()) {
            for (final Peer peer : List.of(faultyServerSide, faultyClientSide)) {
                assertThat(peer.connection.error()).as(peer + "'s error").isNull();
                assertThat(peer.problem).as("what " + peer + " received").isNull();
                assertThat(peer.received).as("messages " + peer + " received").isEqualTo(MESSAGES);
            }
        } else {
            assertThat(faultyClientSide.connection.error()).as("the faulty connection's error")
                .contains(expectedError(fault));
            assertThat(faultyServerSide.connection.isTerminated()).as("its peer saw the end").isTrue();
            for (final Peer peer : List.of(faultyServerSide, faultyClientSide)) {
                assertThat(peer.problem).as("what " + peer + " received before the end").isNull();
            }
        }

        for (final Peer peer : peers) {
            peer.connection.close();
        }
        for (final RdmaDevice device : devices) {
            assertThat(device.registeredBytes()).as("bytes still registered on " + device.name()).isZero();
            device.close();
        }
        if (directory != null) {
            try (Stream<Path> files = Files.list(directory)) {
                assertThat(files.map(Path::getFileName).map(Path::toString).toList()).as("files left").isEmpty();
            }
            Files.delete(directory);
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(newThreads(threadsBefore)).as("threads left").isEmpty());
    }

    private static List<String> newThreads(final Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> !before.contains(thread) && thread.isAlive() && thread != Thread.currentThread())
            .filter(thread -> !thread.getName().startsWith("ForkJoinPool.commonPool"))
            .map(Thread::getName).collect(Collectors.toList());
    }

    private static void route(final ConnectionEvent event, final List<Peer> peers) {
        for (final Peer peer : peers) {
            if (peer.connection.queuePair() == event.queuePair()) {
                peer.connection.onEvent(event);
            }
        }
    }

    private static Peer accept(final RdmaDevice server, final Listener listener, final RdmaDevice client,
                               final String name, final String address) throws Exception {
        final CompletableFuture<ProtocolConnection> accepted = CompletableFuture.supplyAsync(() ->
            ConnectionEstablishment.accept(server, listener.accept(Duration.ofSeconds(10)), OPTIONS));
        final ProtocolConnection connected = ConnectionEstablishment.connect(client, address, OPTIONS,
            Duration.ofSeconds(10));
        final Peer serverSide = new Peer(name + " server side", accepted.get(10, TimeUnit.SECONDS), 1);
        final Peer clientSide = new Peer(name + " client side", connected, 2);
        serverSide.partner = clientSide;
        return serverSide;
    }

    /** One side of a connection: sends its messages on stream 1, one a cycle, and checks what it receives. */
    private static final class Peer {
        final String name;
        final ProtocolConnection connection;
        final int salt;
        final CRC32C crc = new CRC32C();
        final byte[] scratch = new byte[1024];
        Peer partner;
        long sent;
        long received;
        String problem;

        Peer(final String name, final ProtocolConnection connection, final int salt) {
            this.name = name;
            this.connection = connection;
            this.salt = salt;
        }

        boolean done() {
            return received == MESSAGES && connection.isFlushed();
        }

        void offer() {
            if (sent == MESSAGES || connection.isTerminated()) {
                return;
            }
            final ProtocolStream stream = connection.stream(1);
            final int length = length(salt, sent);
            final int index = stream.claim(length);
            if (index < 0) {
                return; // back-pressured: credit will come
            }
            write(stream.buffer(), index, salt, sent, length);
            stream.commit(ProtocolStream.WHOLE);
            sent++;
        }

        void drain() {
            if (connection.isTerminated()) {
                return;
            }
            final ProtocolStream stream = connection.stream(1);
            while (stream.poll(this::check)) {
                received++;
            }
        }

        private void check(final DirectBuffer buffer, final int index, final int length, final short type,
                           final byte flags) {
            final int peerSalt = 3 - salt;
            if (length != length(peerSalt, received)) {
                problem("message " + received + " is " + length + " bytes, not " + length(peerSalt, received));
                return;
            }
            final long sequence = buffer.getLong(index);
            if (sequence != received) {
                problem("expected message " + received + ", got " + sequence);
                return;
            }
            buffer.getBytes(index + 12, scratch, 0, length - 12);
            crc.reset();
            crc.update(scratch, 0, length - 12);
            if ((int) crc.getValue() != buffer.getInt(index + 8)) {
                problem("message " + sequence + " fails its CRC32C");
            }
        }

        private void problem(final String what) {
            if (problem == null) {
                problem = what;
            }
        }

        static int length(final int salt, final long sequence) {
            return 16 + (int) Long.remainderUnsigned((sequence + salt) * 0x9E3779B97F4A7C15L, 700);
        }

        private void write(final MutableDirectBuffer buffer, final int index, final int salt, final long sequence,
                           final int length) {
            buffer.putLong(index, sequence);
            for (int i = 0; i < length - 12; i++) {
                scratch[i] = (byte) (sequence * 31 + i * 7 + salt);
            }
            buffer.putBytes(index + 12, scratch, 0, length - 12);
            crc.reset();
            crc.update(scratch, 0, length - 12);
            buffer.putInt(index + 8, (int) crc.getValue());
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
