package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.protocol.HandshakeFlyweight;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
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
 * What a user reads when the secrets do not line up, and a server with a secret against hostile bytes in the proof:
 * it drops that connection and keeps serving the others.
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

    @ParameterizedTest(name = "a proof of {0} bytes")
    @ValueSource(ints = {0, 1, 7, 51, 53, 64, 65, 300})
    void hostileBytesInTheProofCloseThatConnectionAndTheServerServesTheNext(final int length) {
        final DisposableServer server = echo(ShmTestSupport.server(directory, address)
            .secret(AuthenticatedHandshakeTest.SECRET));
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             CompletionQueue completions = device.createCompletionQueue(16);
             MemoryRegion memory = device.allocateRegion(4096, Access.LOCAL_WRITE)) {
            final QueuePair queuePair = device.connect(address, QueuePairOptions.builder(completions, completions)
                .sendDepth(4).receiveDepth(4).maxSendSge(1).maxReceiveSge(1).build(), authenticatedProposal(),
                ShmTestSupport.BOUND);
            try {
                final UnsafeBuffer garbage = new UnsafeBuffer(memory.address(), 4096);
                for (int i = 0; i < length; i++) {
                    garbage.putByte(i, (byte) (i * 31 + 7));
                }
                final SendWorkRequest send = queuePair.newSendRequest(1);
                send.clear();
                send.add(1, WorkRequestOpcode.SEND, 0).sge(memory.address(), length, memory.lkey());
                assertThat(queuePair.postSend(send)).isEqualTo(PostStatus.OK);
                // the server drops the connection: it never sends a key (this side posted no receive for one)
                Awaitility.await().atMost(ShmTestSupport.BOUND)
                    .until(() -> queuePair.state() != QueuePairState.READY_TO_SEND);
            } finally {
                queuePair.close();
            }
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

    @Test
    void aConnectionWaitingForItsProofCountsAgainstMaxConnectionsUntilItIsDropped() {
        final DisposableServer server = echo(ShmTestSupport.server(directory, address)
            .secret(AuthenticatedHandshakeTest.SECRET).maxConnections(1)
            .liveness(Duration.ofSeconds(1), Duration.ofSeconds(60)));
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             CompletionQueue completions = device.createCompletionQueue(16)) {
            final QueuePair silent = device.connect(address, QueuePairOptions.builder(completions, completions)
                .sendDepth(4).receiveDepth(4).maxSendSge(1).maxReceiveSge(1).build(), authenticatedProposal(),
                ShmTestSupport.BOUND);
            final RdmaClient client = ShmTestSupport.client(directory, address)
                .secret(AuthenticatedHandshakeTest.SECRET);
            assertThatThrownBy(() -> client.connect().block(ShmTestSupport.BOUND))
                .isInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining("maximum of 1 connections");
            silent.close(); // the server's wait for its proof ends at once: the connection went away
            final Connection good = Awaitility.await().atMost(ShmTestSupport.BOUND).ignoreExceptions()
                .until(() -> client.connect().block(ShmTestSupport.BOUND), connection -> connection != null);
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
