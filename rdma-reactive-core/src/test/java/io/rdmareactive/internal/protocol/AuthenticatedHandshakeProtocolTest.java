package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.ConnectionRejectedException;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.QueuePairState;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The authenticated handshake at the protocol level, against well-behaved peers and a rogue client written against
 * the provider SPI (it speaks the handshake by hand, with or without the secret): what each side reads when it fails,
 * and that a side never gives its keys to a peer that did not prove it knows the secret.
 */
class AuthenticatedHandshakeProtocolTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final byte[] SECRET = "correct horse battery staple!!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OTHER = "another secret, just as long..".getBytes(StandardCharsets.US_ASCII);
    private static final ProtocolOptions OPTIONS = new ProtocolOptions(2, 4096, 4096, Duration.ofSeconds(1),
        Duration.ofSeconds(5));

    @ShmTestDirectory
    private Path directory;
    private RdmaDevice serverDevice;
    private RdmaDevice clientDevice;
    private Listener listener;
    private final HandshakeCookies cookies = new HandshakeCookies();

    @BeforeEach
    void open() {
        serverDevice = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
        clientDevice = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
        listener = serverDevice.listen("auth");
    }

    @AfterEach
    void close() {
        listener.close();
        clientDevice.close();
        serverDevice.close();
    }

    /**
     * Serves requests with the secret on another thread, as a server does: challenges those without a proof, and
     * accepts the first that proves itself; the connection, or what failed.
     */
    private CompletableFuture<Object> serve(final byte[] secret, final Duration keysTimeout) {
        return CompletableFuture.supplyAsync(() -> {
            while (true) {
                final ConnectRequest request = listener.accept(TIMEOUT);
                if (request == null) {
                    return new IllegalStateException("no request came");
                }
                try {
                    if (ConnectionEstablishment.screen(serverDevice, request, OPTIONS, secret, cookies)) {
                        return ConnectionEstablishment.acceptAuthenticated(serverDevice, request, OPTIONS, secret)
                            .await(keysTimeout);
                    }
                } catch (final RuntimeException ex) {
                    return ex;
                }
            }
        }, task -> new Thread(task, "serve").start());
    }

    @Test
    void peersWithTheSameSecretConnectAndTheDataPathCarriesFrames() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, TIMEOUT);
        try (ProtocolConnection client = ConnectionEstablishment.connect(clientDevice, "auth", OPTIONS, TIMEOUT, SECRET);
             ProtocolConnection accepted = (ProtocolConnection) server.get()) {
            final ProtocolStream out = client.stream(1);
            final int index = out.claim(5);
            out.buffer().putBytes(index, "hello".getBytes(StandardCharsets.US_ASCII));
            out.commit(ProtocolStream.WHOLE);
            final List<String> received = new ArrayList<>();
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (received.isEmpty() && System.nanoTime() < deadline) {
                client.doWork(System.nanoTime());
                accepted.doWork(System.nanoTime());
                accepted.stream(1).poll((buffer, at, length, type, flags) -> {
                    final byte[] bytes = new byte[length];
                    buffer.getBytes(at, bytes);
                    received.add(new String(bytes, StandardCharsets.US_ASCII));
                });
                Thread.onSpinWait();
            }
            assertThat(received).containsExactly("hello");
            assertThat(client.error()).isNull();
            assertThat(accepted.error()).isNull();
        }
    }

    @Test
    void aWrongSecretFailsBothSidesSayingAuthenticationFailed() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, TIMEOUT);
        assertThatThrownBy(() -> ConnectionEstablishment.connect(clientDevice, "auth", OPTIONS, TIMEOUT, OTHER))
            .isInstanceOf(ProtocolException.class)
            .hasMessageContaining("authentication failed")
            .hasMessageContaining("the proof does not match (a wrong secret");
        assertThat(server.get()).isInstanceOf(ProtocolException.class)
            .asString().contains("authentication failed");
    }

    @Test
    void aSecretOnTheServerOnlyIsRefusedWithAReasonNamingTheClientsSetting() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, TIMEOUT);
        assertThatThrownBy(() -> ConnectionEstablishment.connect(clientDevice, "auth", OPTIONS, TIMEOUT))
            .isInstanceOf(ProtocolException.class)
            .hasMessageContaining("the server requires an authenticated handshake; set RdmaClient.secret(...)");
        assertThat(server.get()).isInstanceOf(ProtocolException.class).asString()
            .contains("the server requires an authenticated handshake; set RdmaClient.secret(...)");
    }

    @Test
    void aSecretOnTheClientOnlyIsRefusedWithAReasonNamingTheServersSetting() throws Exception {
        final CompletableFuture<Object> server = CompletableFuture.supplyAsync(() -> {
            try {
                return ConnectionEstablishment.accept(serverDevice, listener.accept(TIMEOUT), OPTIONS);
            } catch (final RuntimeException ex) {
                return ex;
            }
        });
        assertThatThrownBy(() -> ConnectionEstablishment.connect(clientDevice, "auth", OPTIONS, TIMEOUT, SECRET))
            .isInstanceOf(ProtocolException.class)
            .hasMessageContaining("the client requires an authenticated handshake; set RdmaServer.secret(...)");
        assertThat(server.get()).isInstanceOf(ProtocolException.class).asString()
            .contains("the client requires an authenticated handshake; set RdmaServer.secret(...)");
    }

    @Test
    void aClientWithoutTheSecretGetsAChallengeAndTheServerHoldsNothingForIt() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, TIMEOUT);
        final long registered = serverDevice.registeredBytes();
        final byte[] proposal = Rogue.proposal();
        final byte[] cookie = Rogue.challenge(clientDevice, "auth", proposal);
        assertThat(cookie).hasSize(HandshakeFlyweight.COOKIE_LENGTH);
        assertThat(serverDevice.registeredBytes()).as("what the challenge cost the server").isEqualTo(registered);
        // a guessed proof, with the cookie the server gave: refused before anything is made for it
        System.arraycopy(cookie, 0, proposal, HandshakeFlyweight.AUTH_COOKIE_OFFSET, cookie.length);
        Arrays.fill(proposal, HandshakeFlyweight.AUTH_MAC_OFFSET, HandshakeFlyweight.AUTH_LENGTH, (byte) 0x5A);
        assertThatThrownBy(() -> Rogue.connect(clientDevice, "auth", proposal))
            .isInstanceOf(ConnectionRejectedException.class)
            .extracting(ex -> RejectFlyweight.decode(((ConnectionRejectedException) ex).privateData())).asString()
            .contains("authentication failed").contains("the proof does not match");
        assertThat(server.get()).isInstanceOf(ProtocolException.class).asString()
            .contains("authentication failed").contains("a wrong secret");
        assertThat(serverDevice.registeredBytes()).isEqualTo(registered);
    }

    @Test
    void aCookieTheServerDidNotIssueIsRefused() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, TIMEOUT);
        final byte[] proposal = Rogue.proposal();
        final byte[] cookie = Rogue.challenge(clientDevice, "auth", proposal);
        cookie[0] ^= 1;
        assertThatThrownBy(() -> Rogue.connectProven(clientDevice, "auth", proposal, cookie, SECRET))
            .isInstanceOf(ConnectionRejectedException.class)
            .extracting(ex -> RejectFlyweight.decode(((ConnectionRejectedException) ex).privateData())).asString()
            .contains("the challenge's cookie is stale or not this server's");
        assertThat(server.get()).isInstanceOf(ProtocolException.class).asString().contains("cookie");
    }

    @Test
    void theAnswerToAProvenClientCarriesANonceAndAMacButNoKey() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, TIMEOUT);
        try (Rogue rogue = Rogue.proven(clientDevice, "auth", SECRET)) {
            final byte[] answer = rogue.answer;
            assertThat(answer).hasSize(HandshakeFlyweight.AUTH_LENGTH);
            final HandshakeFlyweight handshake = new HandshakeFlyweight().wrap(new UnsafeBuffer(answer), 0);
            assertThat(handshake.flags()).isEqualTo(HandshakeFlyweight.FLAG_AUTH);
            // where the keys would be: exactly the server's nonce and its MAC over the exchange, nothing else
            final byte[] expected = HandshakeAuthentication.mac(SECRET, "rr-server", AuthExchange.nonce(rogue.proposal),
                AuthExchange.nonce(answer), AuthExchange.settings(rogue.proposal), AuthExchange.settings(answer),
                rogue.queuePair.localEndpoint(), rogue.queuePair.peerEndpoint());
            assertThat(Arrays.copyOfRange(answer, HandshakeFlyweight.AUTH_MAC_OFFSET, HandshakeFlyweight.AUTH_LENGTH))
                .isEqualTo(Arrays.copyOf(expected, HandshakeAuthentication.ANSWER_MAC_LENGTH));

            rogue.send(forged(new byte[HandshakeAuthentication.MAC_LENGTH], rogue));
            assertThat(server.get()).isInstanceOf(ProtocolException.class).asString()
                .contains("authentication failed").contains("does not match");
            assertThat(rogue.awaitReceive()).as("what the server sent the rogue: nothing, its receive was flushed")
                .isNotEqualTo(CompletionStatus.SUCCESS);
        }
    }

    /**
     * A server without the secret (or one that relays) can challenge a client and accept its proof, but cannot make
     * the answer's MAC: the client checks it before it sends anything, so the server gets no key.
     */
    @Test
    void aServerWhoseAnswerDoesNotCheckGetsNoKeyFromTheClient() throws Exception {
        final CompletableFuture<Rogue> rogueServer = CompletableFuture.supplyAsync(() -> {
            listener.accept(TIMEOUT).reject(ChallengeFlyweight.encode(new byte[HandshakeFlyweight.COOKIE_LENGTH]));
            final ConnectRequest proven = listener.accept(TIMEOUT);
            final byte[] answer = Rogue.proposal(); // settings and AUTH, a nonce, a MAC it could only guess
            Arrays.fill(answer, HandshakeFlyweight.AUTH_MAC_OFFSET, HandshakeFlyweight.AUTH_LENGTH, (byte) 0x33);
            final CompletionQueue completions = serverDevice.createCompletionQueue(16);
            final MemoryRegion memory = serverDevice.allocateRegion(16384, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            return new Rogue(completions, memory, proven.accept(Rogue.options(completions, memory), answer),
                proven.privateData());
        }, task -> new Thread(task, "rogue-server").start());
        assertThatThrownBy(() -> ConnectionEstablishment.connect(clientDevice, "auth", OPTIONS, TIMEOUT, SECRET))
            .isInstanceOf(ProtocolException.class)
            .hasMessageContaining("authentication failed: the server at 'auth' does not know the secret")
            .hasMessageContaining("this side sent it no key");
        try (Rogue server = rogueServer.get()) {
            assertThat(server.awaitReceive()).as("what the client sent the rogue server: nothing")
                .isNotEqualTo(CompletionStatus.SUCCESS);
        }
    }

    @Test
    void aProofReplayedFromAnotherQueuePairIsRefused() throws Exception {
        final CompletableFuture<Object> first = serve(SECRET, TIMEOUT);
        final byte[] request;
        try (Rogue honest = Rogue.proven(clientDevice, "auth", SECRET)) {
            request = honest.proposal;
            honest.send(honest.keysMessage(SECRET));
            assertThat(honest.awaitReceive()).as("the server's keys, for a client that knows the secret")
                .isEqualTo(CompletionStatus.SUCCESS);
            ((ProtocolConnection) first.get()).close();
        }
        final CompletableFuture<Object> second = serve(SECRET, TIMEOUT);
        assertThatThrownBy(() -> Rogue.connect(clientDevice, "auth", request))
            .isInstanceOf(ConnectionRejectedException.class);
        assertThat(second.get()).isInstanceOf(ProtocolException.class).asString()
            .contains("authentication failed").contains("the proof does not match");
    }

    @Test
    void aShortKeysMessageIsAProtocolError() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, TIMEOUT);
        try (Rogue rogue = Rogue.proven(clientDevice, "auth", SECRET)) {
            rogue.send(new byte[10]);
            assertThat(server.get()).isInstanceOf(ProtocolException.class).asString()
                .contains("authentication failed: the keys message of").contains("is 10 bytes, not 52 (protocol error)");
            assertThat(rogue.awaitReceive()).isNotEqualTo(CompletionStatus.SUCCESS);
        }
    }

    @Test
    void aKeysMessageLongerThanTheReceiveBufferEndsTheConnection() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, TIMEOUT);
        try (Rogue rogue = Rogue.proven(clientDevice, "auth", SECRET)) {
            final byte[] garbage = new byte[200];
            Arrays.fill(garbage, (byte) 0x5A);
            rogue.send(garbage);
            assertThat(server.get()).isInstanceOf(ProtocolException.class).asString()
                .contains("authentication failed");
            assertThat(rogue.awaitReceive()).isNotEqualTo(CompletionStatus.SUCCESS);
        }
    }

    @Test
    void aProvenClientThatNeverSendsItsKeysIsDroppedAtTheTimeout() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, Duration.ofMillis(300));
        try (Rogue rogue = Rogue.proven(clientDevice, "auth", SECRET)) {
            assertThat(server.get()).isInstanceOf(ProtocolException.class).asString()
                .contains("authentication failed: no keys message from")
                .contains("in time (300 ms); the connection is dropped");
            assertThat(rogue.awaitReceive()).isNotEqualTo(CompletionStatus.SUCCESS);
        }
    }

    /**
     * A client that proves it knows the secret and then stalls (it never sends its keys) holds one of the server's
     * {@code maxPendingHandshakes} until the liveness timeout: with one, the next client is refused at once with the
     * reason, and connects once the stalled handshake has been dropped.
     */
    @Test
    void aStalledProvenHandshakeHoldsOnePendingSlotUntilItsDeadline() {
        final io.rdmareactive.DisposableServer server = io.rdmareactive.RdmaServer.create().provider("shm")
            .directory(directory).address("pending").idleStrategy("backoff").secret(SECRET).maxPendingHandshakes(1)
            .liveness(Duration.ofMillis(200), Duration.ofSeconds(1))
            .handleStreams((kind, in, out) -> out.send(in.receive(io.rdmareactive.codec.Codecs.UTF8_STRING),
                io.rdmareactive.codec.Codecs.UTF8_STRING))
            .bind().block(TIMEOUT);
        final io.rdmareactive.RdmaClient client = io.rdmareactive.RdmaClient.create().provider("shm")
            .directory(directory).address("pending").idleStrategy("backoff").secret(SECRET);
        try (Rogue stalled = Rogue.proven(clientDevice, "pending", SECRET)) {
            assertThatThrownBy(() -> client.connect().block(TIMEOUT))
                .isInstanceOf(io.rdmareactive.RdmaConnectionException.class)
                .hasMessageContaining("sets up its maximum of 1 connections at once (RdmaServer.maxPendingHandshakes)");
            final io.rdmareactive.Connection connection = org.awaitility.Awaitility.await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> client.connect().block(TIMEOUT), c -> c != null);
            try {
                assertThat(connection.requestResponse("after", io.rdmareactive.codec.Codecs.UTF8_STRING,
                    io.rdmareactive.codec.Codecs.UTF8_STRING).block(TIMEOUT)).isEqualTo("after");
            } finally {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(TIMEOUT);
            }
            assertThat(stalled.awaitReceive()).as("the stalled client got no key").isNotEqualTo(
                CompletionStatus.SUCCESS);
        } finally {
            server.dispose();
            server.onDispose().block(TIMEOUT);
        }
    }

    /**
     * A host without the secret that a client reaches instead of the server (a wrong address; on RoCE, a spoofed ARP
     * answer) relays the client's requests to the server over queue pairs of its own, and the server's answers back,
     * byte for byte. The client's proof names the endpoint of the client's queue pair, which is not the relay's: the
     * server refuses the relayed proof and makes nothing, and the client, refused, sends no key.
     */
    @Test
    void aRelayedHandshakeIsRefusedByTheServerBeforeAnythingIsMade() throws Exception {
        final CompletableFuture<Object> server = serve(SECRET, Duration.ofSeconds(3));
        final long registered = serverDevice.registeredBytes();
        final RdmaDevice relayDevice = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory)
            .build());
        try (Listener relayListener = relayDevice.listen("relay")) {
            final CompletableFuture<Integer> relay = CompletableFuture.supplyAsync(() -> {
                int relayed = 0;
                for (int round = 0; round < 2; round++) { // the first request, then the one with the proof
                    final ConnectRequest fromClient = relayListener.accept(TIMEOUT);
                    try {
                        Rogue.connect(relayDevice, "auth", fromClient.privateData()).close();
                        fromClient.reject(new byte[0]);
                    } catch (final ConnectionRejectedException rejected) {
                        fromClient.reject(rejected.privateData());
                        relayed++;
                    }
                }
                return relayed;
            }, task -> new Thread(task, "relay").start()); // not the common pool: serve() may hold its one thread
            assertThatThrownBy(() -> ConnectionEstablishment.connect(clientDevice, "relay", OPTIONS, TIMEOUT, SECRET))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("authentication failed")
                .hasMessageContaining("a relayed handshake");
            assertThat(relay.get()).as("both requests were relayed, both answered with a reject").isEqualTo(2);
            assertThat(server.get()).isInstanceOf(ProtocolException.class).asString()
                .contains("the proof does not match");
            assertThat(serverDevice.registeredBytes()).isEqualTo(registered);
        } finally {
            relayDevice.close();
        }
    }

    private static byte[] forged(final byte[] mac, final Rogue rogue) {
        final byte[] message = new byte[HandshakeAuthentication.MESSAGE_LENGTH];
        System.arraycopy(mac, 0, message, 0, mac.length);
        System.arraycopy(rogue.keys(), 0, message, HandshakeAuthentication.MAC_LENGTH,
            HandshakeAuthentication.MESSAGE_LENGTH - HandshakeAuthentication.MAC_LENGTH);
        return message;
    }

    /** A client that speaks the authenticated handshake by hand through the SPI. */
    private static final class Rogue implements AutoCloseable {
        final CompletionQueue completions;
        final MemoryRegion memory;
        final QueuePair queuePair;
        final byte[] proposal;
        final byte[] answer;

        private Rogue(final CompletionQueue completions, final MemoryRegion memory, final QueuePair queuePair,
                      final byte[] proposal) {
            this.completions = completions;
            this.memory = memory;
            this.queuePair = queuePair;
            this.proposal = proposal;
            this.answer = queuePair.peerPrivateData();
        }

        /** @return a first authenticated request: settings, AUTH, a client nonce, no cookie, no proof */
        static byte[] proposal() {
            final byte[] proposal = new byte[HandshakeFlyweight.AUTH_LENGTH];
            final UnsafeBuffer buffer = new UnsafeBuffer(proposal);
            new HandshakeFlyweight().wrap(buffer, 0).write(OPTIONS.maxStreams(), OPTIONS.ringCapacity(),
                OPTIONS.maxMessageLength(), 0, 0, 0);
            buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) HandshakeFlyweight.FLAG_AUTH,
                HandshakeFlyweight.BYTE_ORDER);
            System.arraycopy(HandshakeAuthentication.clientNonce(), 0, proposal, HandshakeFlyweight.AUTH_NONCE_OFFSET,
                HandshakeFlyweight.CLIENT_NONCE_LENGTH);
            return proposal;
        }

        /** @return the cookie of the challenge that answers the first request */
        static byte[] challenge(final RdmaDevice device, final String address, final byte[] proposal) {
            try {
                connect(device, address, proposal).close();
            } catch (final ConnectionRejectedException rejected) {
                final byte[] cookie = ChallengeFlyweight.decode(rejected.privateData());
                assertThat(cookie).as("the first request's answer is a challenge").isNotNull();
                return cookie;
            }
            throw new AssertionError("the first request was accepted");
        }

        /** Both requests with the proof an honest client with that secret makes. */
        static Rogue proven(final RdmaDevice device, final String address, final byte[] secret) {
            final byte[] proposal = proposal();
            return connectProven(device, address, proposal, challenge(device, address, proposal), secret);
        }

        /** The second request: the cookie, and the proof over this queue pair's endpoint. */
        static Rogue connectProven(final RdmaDevice device, final String address, final byte[] proposal,
                                   final byte[] cookie, final byte[] secret) {
            System.arraycopy(cookie, 0, proposal, HandshakeFlyweight.AUTH_COOKIE_OFFSET, cookie.length);
            final CompletionQueue completions = device.createCompletionQueue(16);
            final MemoryRegion memory = device.allocateRegion(16384, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            try {
                return new Rogue(completions, memory, device.connect(address, options(completions, memory), created -> {
                    System.arraycopy(HandshakeAuthentication.proof(secret, proposal, created.localEndpoint()), 0,
                        proposal, HandshakeFlyweight.AUTH_MAC_OFFSET, HandshakeAuthentication.PROOF_LENGTH);
                    return proposal;
                }, TIMEOUT), proposal);
            } catch (final RuntimeException ex) {
                completions.close();
                memory.close();
                throw ex;
            }
        }

        /** Connects with the given request (a relay's: the one a client sent it), a receive posted. */
        static Rogue connect(final RdmaDevice device, final String address, final byte[] proposal) {
            final CompletionQueue completions = device.createCompletionQueue(16);
            final MemoryRegion memory = device.allocateRegion(16384, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            try {
                return new Rogue(completions, memory, device.connect(address, options(completions, memory), proposal,
                    TIMEOUT), proposal);
            } catch (final RuntimeException ex) {
                completions.close();
                memory.close();
                throw ex;
            }
        }

        private static QueuePairOptions options(final CompletionQueue completions, final MemoryRegion memory) {
            return QueuePairOptions.builder(completions, completions).sendDepth(4)
                .receiveDepth(4).maxSendSge(1).maxReceiveSge(1).prepare(queuePair -> {
                    final ReceiveWorkRequest receive = queuePair.newReceiveRequest(1);
                    receive.clear().add(7).sge(memory.address() + 8192, 256, memory.lkey());
                    assertThat(queuePair.postReceive(receive)).isEqualTo(PostStatus.OK);
                }).build();
        }

        byte[] keys() {
            final byte[] keys = new byte[20];
            final UnsafeBuffer buffer = new UnsafeBuffer(keys);
            buffer.putInt(0, memory.rkey(), HandshakeFlyweight.BYTE_ORDER);
            buffer.putLong(4, memory.address(), HandshakeFlyweight.BYTE_ORDER);
            buffer.putLong(12, memory.length(), HandshakeFlyweight.BYTE_ORDER);
            return keys;
        }

        /** @return the keys message an honest client with that secret sends in this exchange */
        byte[] keysMessage(final byte[] secret) {
            return forged(HandshakeAuthentication.mac(secret, "rr-client", AuthExchange.nonce(answer),
                AuthExchange.nonce(proposal), AuthExchange.settings(proposal), AuthExchange.settings(answer),
                queuePair.localEndpoint(), queuePair.peerEndpoint(), keys()), this);
        }

        void send(final byte[] message) {
            new UnsafeBuffer(memory.address(), 4096).putBytes(0, message);
            final SendWorkRequest send = queuePair.newSendRequest(1);
            send.clear();
            send.add(1, WorkRequestOpcode.SEND, 0).sge(memory.address(), message.length, memory.lkey());
            assertThat(queuePair.postSend(send)).isEqualTo(PostStatus.OK);
        }

        /** @return the status of the rogue's one receive, once it completes or the connection ends */
        int awaitReceive() {
            final int[] status = {-1};
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (status[0] < 0 && System.nanoTime() < deadline) {
                completions.poll(completion -> {
                    if (completion.isReceive()) {
                        status[0] = completion.status();
                    }
                }, 4);
                if (status[0] < 0 && queuePair.state() != QueuePairState.READY_TO_SEND) {
                    completions.poll(completion -> {
                        if (completion.isReceive()) {
                            status[0] = completion.status();
                        }
                    }, 4);
                    return status[0] < 0 ? CompletionStatus.WR_FLUSH_ERR : status[0];
                }
                Thread.onSpinWait();
            }
            return status[0];
        }

        @Override
        public void close() {
            queuePair.close();
            completions.close();
            memory.close();
        }
    }
}
