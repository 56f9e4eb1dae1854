package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.protocol.ChallengeFlyweight;
import io.rdmareactive.internal.protocol.HandshakeFlyweight;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectionRejectedException;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.QueuePairState;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.nio.file.Path;
import java.time.Duration;
import org.agrona.concurrent.UnsafeBuffer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a user reads when the secrets do not line up, and a server with a secret against hostile requests: it refuses
 * them, holds nothing for a client that has not proven it knows the secret, and keeps serving the others.
 */
class AuthenticationRefusalTest {

    private Path directory;
    private String address;

    @BeforeEach
    void directory() {
        directory = ShmTestSupport.newDirectory();
        address = ShmTestSupport.uniqueAddress("refuse");
    }

    @AfterEach
    void delete() {
        ShmTestSupport.deleteDirectory(directory);
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

    @Test
    void theSecretIsCopiedSoChangingTheCallersArrayAfterwardsChangesNothing() {
        final byte[] secret = AuthenticatedHandshakeTest.SECRET.clone();
        final DisposableServer server = echo(ShmTestSupport.server(directory, address).secret(secret));
        try {
            final RdmaClient client = ShmTestSupport.client(directory, address).secret(secret);
            java.util.Arrays.fill(secret, (byte) 0);
            final Connection connection = client.connect().block(ShmTestSupport.BOUND);
            connection.dispose();
            connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        } finally {
            server.dispose();
        }
    }

    @Test
    void aSecretOnTheServerOnlyIsRefusedNamingTheClientsSetting() {
        final DisposableServer server = echo(ShmTestSupport.server(directory, address)
            .secret(AuthenticatedHandshakeTest.SECRET));
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
                .secret(AuthenticatedHandshakeTest.SECRET).connect().block(ShmTestSupport.BOUND))
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
            .secret(AuthenticatedHandshakeTest.SECRET));
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
            final Connection good = ShmTestSupport.client(directory, address).secret(AuthenticatedHandshakeTest.SECRET)
                .connect().block(ShmTestSupport.BOUND);
            try {
                assertThat(good.requestResponse("after " + length, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("AFTER " + length);
            } finally {
                good.dispose();
                good.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
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
            .secret(AuthenticatedHandshakeTest.SECRET).maxConnections(1).maxPendingHandshakes(1));
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
            final Connection good = ShmTestSupport.client(directory, address).secret(AuthenticatedHandshakeTest.SECRET)
                .connect().block(ShmTestSupport.BOUND);
            try {
                assertThat(good.requestResponse("next", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("NEXT");
            } finally {
                good.dispose();
                good.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            }
        } finally {
            server.dispose();
        }
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
