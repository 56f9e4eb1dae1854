package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.protocol.ChallengeFlyweight;
import io.rdmareactive.internal.protocol.HandshakeAuthentication;
import io.rdmareactive.internal.protocol.HandshakeFlyweight;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectionRejectedException;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a user reads when the secrets do not line up, and a server with a secret against hostile requests: it refuses
 * them, holds nothing for a client that has not proven it knows the secret, and keeps serving the others.
 */
class AuthenticationRefusalTest {

    @ShmTestDirectory
    private Path directory;
    private String address;

    @BeforeEach
    void newAddress() {
        address = ShmTestSupport.uniqueAddress("refuse");
    }

    private DisposableServer echo(final RdmaServer builder) {
        return builder.handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING)
            .map(String::toUpperCase), Codecs.UTF8_STRING)).bind().block(ShmTestSupport.BOUND);
    }

    @Test
    void aSecretShorterThan16BytesIsRefusedWhenTheBuilderIsConfigured() {
        assertThatThrownBy(() -> RdmaServer.create().secret(new byte[15]))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("RdmaServer.secret needs a secret of at least 16 bytes (got 15 bytes)");
        assertThatThrownBy(() -> RdmaClient.create().secret(null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("RdmaClient.secret needs a secret of at least 16 bytes (got none)");
    }

    /**
     * Server and client each get an array of their own with the same contents, and each caller then overwrites its
     * array with bytes of its own: the two still connect and exchange a message, because each builder copied the
     * secret. Had either side kept the caller's array (or had both shared one, as this test once did, so that
     * zeroing it changed both keys alike), the keys would now differ and the client would be refused.
     */
    @Test
    void theSecretIsCopiedSoChangingTheCallersArraysAfterwardsChangesNothing() {
        final byte[] serverSecret = secret();
        final byte[] clientSecret = secret();
        final DisposableServer server = echo(ShmTestSupport.server(directory, address).secret(serverSecret));
        try {
            final RdmaClient client = ShmTestSupport.client(directory, address).secret(clientSecret);
            Arrays.fill(serverSecret, (byte) 0x11);
            Arrays.fill(clientSecret, (byte) 0x22);
            final Connection connection = client.connect().block(ShmTestSupport.BOUND);
            try {
                assertThat(connection.requestResponse("copied", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("COPIED");
            } finally {
                close(connection);
            }
        } finally {
            server.dispose();
        }
    }

    /**
     * Secrets of other contents than the server's, each in an array of its own: every one is refused, saying that the
     * proof does not match, and a client with the server's secret (in yet another array) is served next. The cases
     * catch keys compared by their first 16 bytes only, by length, or not at all.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("otherSecrets")
    void aClientWithASecretOfOtherContentsIsRefusedAndTheServerServesTheNext(final String what,
                                                                            final byte[] clientSecret) {
        final DisposableServer server = echo(ShmTestSupport.server(directory, address).secret(secret()));
        try {
            assertThat(clientSecret).as(what).isNotEqualTo(AuthenticatedHandshakeTest.SECRET);
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address).secret(clientSecret).connect()
                .block(ShmTestSupport.BOUND))
                .isInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining("authentication failed")
                .hasMessageContaining("the proof does not match (a wrong secret");
            final Connection good = ShmTestSupport.client(directory, address).secret(secret()).connect()
                .block(ShmTestSupport.BOUND);
            try {
                assertThat(good.requestResponse("next", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("NEXT");
            } finally {
                close(good);
            }
        } finally {
            server.dispose();
        }
    }

    static Stream<Arguments> otherSecrets() {
        final byte[] last = secret();
        last[last.length - 1] ^= 1;
        final byte[] first = secret();
        first[0] ^= (byte) 0x80;
        final byte[] tail = secret();
        for (int i = HandshakeAuthentication.MIN_SECRET_LENGTH; i < tail.length; i++) {
            tail[i] = (byte) ~tail[i];
        }
        // not a zero byte: HMAC pads a key shorter than its block with zeros, so a trailing zero names the same key
        final byte[] longer = Arrays.copyOf(secret(), AuthenticatedHandshakeTest.SECRET.length + 1);
        longer[longer.length - 1] = '.';
        final byte[] prefix = Arrays.copyOf(secret(), AuthenticatedHandshakeTest.SECRET.length - 1);
        return Stream.of(
            Arguments.of("the last bit differs", last),
            Arguments.of("the first byte differs", first),
            Arguments.of("the first 16 bytes are equal, the rest differ", tail),
            Arguments.of("one byte longer", longer),
            Arguments.of("one byte shorter (a prefix)", prefix));
    }

    @Test
    void aSecretOnTheServerOnlyIsRefusedNamingTheClientsSetting() {
        final DisposableServer server = echo(ShmTestSupport.server(directory, address)
            .secret(secret()));
        try {
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND))
                .isInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining("the server requires an authenticated handshake; set RdmaClient.secret(...)");
        } finally {
            server.dispose();
        }
    }

    @Test
    void aSecretOnTheClientOnlyIsRefusedNamingTheServersSetting() {
        final DisposableServer server = echo(ShmTestSupport.server(directory, address));
        try {
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address)
                .secret(secret()).connect().block(ShmTestSupport.BOUND))
                .isInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining("the client requires an authenticated handshake; set RdmaServer.secret(...)");
        } finally {
            server.dispose();
        }
    }

    /**
     * Connect requests with an authenticated header and hostile bytes where the nonce, the cookie and the proof go,
     * of every length up to what a request carries: each is refused (or, with no cookie and no proof, challenged),
     * none is accepted, and the server serves the next client.
     */
    @ParameterizedTest(name = "a request of {0} bytes")
    @ValueSource(ints = {0, 1, 19, 20, 39, 40, 51, 52, 55})
    void hostileBytesInTheRequestAreRefusedAndTheServerServesTheNext(final int length) {
        final DisposableServer server = echo(ShmTestSupport.server(directory, address)
            .secret(secret()));
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             CompletionQueue completions = device.createCompletionQueue(16)) {
            final byte[] request = new byte[length];
            final byte[] header = authenticatedProposal();
            for (int i = 0; i < length; i++) {
                request[i] = i < HandshakeFlyweight.AUTH_NONCE_OFFSET ? header[i] : (byte) (i * 31 + 7);
            }
            assertThatThrownBy(() -> device.connect(address, QueuePairOptions.builder(completions, completions)
                .sendDepth(4).receiveDepth(4).maxSendSge(1).maxReceiveSge(1).build(), request, ShmTestSupport.BOUND))
                .isInstanceOf(ConnectionRejectedException.class);
            final Connection good = ShmTestSupport.client(directory, address).secret(secret())
                .connect().block(ShmTestSupport.BOUND);
            try {
                assertThat(good.requestResponse("after " + length, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("AFTER " + length);
            } finally {
                close(good);
            }
        } finally {
            server.dispose();
        }
    }

    /**
     * A client without the secret that sends requests as fast as it can, never coming back with a proof, holds
     * nothing of the server: not a connection slot (the limit here is 1), not a handshake, not a byte of registered
     * memory. An honest client connects meanwhile.
     */
    @Test
    void aClientWithoutTheSecretHoldsNoSlotNoHandshakeAndNoMemory() {
        final DisposableServer server = echo(ShmTestSupport.server(directory, address)
            .secret(secret()).maxConnections(1).maxPendingHandshakes(1));
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             CompletionQueue completions = device.createCompletionQueue(16)) {
            final QueuePairOptions options = QueuePairOptions.builder(completions, completions)
                .sendDepth(4).receiveDepth(4).maxSendSge(1).maxReceiveSge(1).build();
            final java.util.Set<Path> files = files();
            for (int i = 0; i < 50; i++) {
                final byte[] request = authenticatedProposal();
                request[HandshakeFlyweight.AUTH_NONCE_OFFSET] = (byte) i;
                assertThatThrownBy(() -> device.connect(address, options, request, ShmTestSupport.BOUND))
                    .isInstanceOf(ConnectionRejectedException.class)
                    .satisfies(ex -> assertThat(ChallengeFlyweight.decode(((ConnectionRejectedException) ex)
                        .privateData())).as("a challenge").isNotNull());
            }
            assertThat(files()).as("the files of the shared-memory directory: no region, no queue pair made")
                .isEqualTo(files);
            final Connection good = ShmTestSupport.client(directory, address).secret(secret())
                .connect().block(ShmTestSupport.BOUND);
            try {
                assertThat(good.requestResponse("next", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("NEXT");
            } finally {
                close(good);
            }
        } finally {
            server.dispose();
        }
    }

    /** @return the server's secret in an array of its own: server and client never share the caller's array */
    private static byte[] secret() {
        return AuthenticatedHandshakeTest.SECRET.clone();
    }

    private static void close(final Connection connection) {
        connection.dispose();
        connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
    }

    private java.util.Set<Path> files() {
        try (java.util.stream.Stream<Path> listing = java.nio.file.Files.list(directory)) {
            return listing.collect(java.util.stream.Collectors.toSet());
        } catch (final java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    /** A proposal with the AUTH flag and an all-zero nonce: what a client without the secret can send. */
    private static byte[] authenticatedProposal() {
        final byte[] proposal = new byte[HandshakeFlyweight.AUTH_LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(proposal);
        new HandshakeFlyweight().wrap(buffer, 0).write(2, 4096, 4096, 0, 0, 0);
        buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) HandshakeFlyweight.FLAG_AUTH,
            HandshakeFlyweight.BYTE_ORDER);
        return proposal;
    }
}
