package io.rdmareactive.provider.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaConnectionException;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.protocol.ChallengeFlyweight;
import io.rdmareactive.internal.protocol.HandshakeFlyweight;
import io.rdmareactive.internal.protocol.RejectFlyweight;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.agrona.concurrent.UnsafeBuffer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A client that sends connect requests and never completes them ({@link StallingCmClient}: no ready-to-use message
 * after the server's accept) against a server on real verbs (the Soft-RoCE guest). Each handshake runs on its own
 * with a deadline, so the stalled ones delay no honest client; at most {@code maxPendingHandshakes} run at once; and
 * with a secret, a client that has not proven it knows it gets a challenge and holds nothing.
 */
@Tag("verbs")
class VerbsStalledHandshakeTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final byte[] SECRET = "a secret of the stalled-handshake test".getBytes(StandardCharsets.US_ASCII);

    private String address;

    @BeforeEach
    void verbs() {
        VerbsTestEnvironment.assumeVerbs();
        address = VerbsTestEnvironment.uniqueAddress();
    }

    private DisposableServer echo(final RdmaServer server) {
        return server.provider("verbs").address(address).idleStrategy("backoff")
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(String::toUpperCase),
                Codecs.UTF8_STRING))
            .bind().block(BOUND);
    }

    private RdmaClient client() {
        return RdmaClient.create().provider("verbs").address(address).idleStrategy("backoff")
            .connectTimeout(Duration.ofSeconds(5));
    }

    private static void roundTrip(final Connection connection, final String text) {
        try {
            assertThat(connection.requestResponse(text, Codecs.UTF8_STRING, Codecs.UTF8_STRING).block(BOUND))
                .isEqualTo(text.toUpperCase());
        } finally {
            connection.dispose();
            connection.onDispose().onErrorComplete().block(BOUND);
        }
    }

    /** A valid plain handshake for small rings, naming a region the stalling client never registered. */
    private static byte[] plainRequest() {
        final byte[] request = new byte[HandshakeFlyweight.LENGTH];
        new HandshakeFlyweight().wrap(new UnsafeBuffer(request), 0).write(2, 4096, 4096, 1, 0x10000,
            HandshakeFlyweight.requiredRegionLength(2, 4096));
        return request;
    }

    /** A first authenticated request: settings, AUTH, a nonce, no cookie, no proof. */
    private static byte[] authenticatedRequest(final int nonce) {
        final byte[] request = new byte[HandshakeFlyweight.AUTH_LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(request);
        new HandshakeFlyweight().wrap(buffer, 0).write(2, 4096, 4096, 0, 0, 0);
        buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) HandshakeFlyweight.FLAG_AUTH,
            HandshakeFlyweight.BYTE_ORDER);
        buffer.putInt(HandshakeFlyweight.AUTH_NONCE_OFFSET, nonce);
        return request;
    }

    @Test
    void stalledHandshakesDelayNoHonestClient() {
        final DisposableServer server = echo(RdmaServer.create());
        try (StallingCmClient stalling = new StallingCmClient()) {
            for (int i = 0; i < 3; i++) {
                assertThat(stalling.stall(address, plainRequest()).type()).as("the server accepted, and waits")
                    .isEqualTo(CmEvent.CONNECT_RESPONSE);
            }
            // before: the one accepting thread waited up to 15 s for each stalled request in turn
            roundTrip(client().connect().block(BOUND), "through");
        } finally {
            server.dispose();
            server.onDispose().block(BOUND);
        }
    }

    @Test
    void pendingHandshakesAreBoundedAndFreedWhenTheirClientGoes() {
        final DisposableServer server = echo(RdmaServer.create().maxPendingHandshakes(2));
        try {
            try (StallingCmClient stalling = new StallingCmClient()) {
                for (int i = 0; i < 2; i++) {
                    assertThat(stalling.stall(address, plainRequest()).type()).isEqualTo(CmEvent.CONNECT_RESPONSE);
                }
                assertThatThrownBy(() -> client().connect().block(BOUND))
                    .isInstanceOf(RdmaConnectionException.class)
                    .hasMessageContaining("sets up its maximum of 2 connections at once")
                    .hasMessageContaining("RdmaServer.maxPendingHandshakes");
            }
            // the stalled requests ended (or reach the provider's 15 s deadline): their slots come back
            final Connection connection = Awaitility.await().atMost(BOUND).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(() -> client().connect().block(BOUND), c -> c != null);
            roundTrip(connection, "freed");
        } finally {
            server.dispose();
            server.onDispose().block(BOUND);
        }
    }

    @Test
    void withASecretAClientThatHasNotProvenItselfGetsOnlyChallengesAndHoldsNothing() {
        final DisposableServer server = echo(RdmaServer.create().secret(SECRET).maxConnections(1)
            .maxPendingHandshakes(1));
        try (StallingCmClient stalling = new StallingCmClient()) {
            byte[] cookie = null;
            for (int i = 0; i < 20; i++) {
                final StallingCmClient.Answer answer = stalling.stall(address, authenticatedRequest(i));
                assertThat(answer.type()).as("refused at once").isEqualTo(CmEvent.REJECTED);
                cookie = ChallengeFlyweight.decode(answer.privateData());
                assertThat(cookie).as("a challenge").isNotNull();
            }
            // the cookie back with a guessed proof: refused, nothing made for it
            final byte[] guess = authenticatedRequest(19);
            System.arraycopy(cookie, 0, guess, HandshakeFlyweight.AUTH_COOKIE_OFFSET, cookie.length);
            java.util.Arrays.fill(guess, HandshakeFlyweight.AUTH_MAC_OFFSET, HandshakeFlyweight.AUTH_LENGTH, (byte) 7);
            final StallingCmClient.Answer refused = stalling.stall(address, guess);
            assertThat(refused.type()).isEqualTo(CmEvent.REJECTED);
            assertThat(RejectFlyweight.decode(refused.privateData())).contains("the proof does not match");
            // one connection slot, one handshake slot, and they are free
            roundTrip(client().secret(SECRET).connect().block(BOUND), "proven");
        } finally {
            server.dispose();
            server.onDispose().block(BOUND);
        }
    }
}
