package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The zero-copy inbound ({@code receiveViews()}) hands over views with exactly the bytes sent, whole messages and
 * fragmented ones alike, and what is copied inside {@code onNext} outlives the view; a sender's failing publisher
 * reaches the receiver as {@link RdmaStreamException} with its message; a connection to where no server listens
 * fails with {@link RdmaConnectionException} naming the address.
 */
class ViewsAndErrorsTest {

    private static final int RING_CAPACITY = 64 * 1024;
    /** The largest message of one frame in a 64 KiB ring: a quarter of it, less the 8-byte frame header. */
    private static final int LARGEST_WHOLE = RING_CAPACITY / 4 - 8;
    private static final int MAX_MESSAGE = 128 * 1024;
    private static final List<Integer> SIZES = List.of(0, 1, 7, 8, 100, 4096, LARGEST_WHOLE - 1, LARGEST_WHOLE,
        LARGEST_WHOLE + 1, 2 * LARGEST_WHOLE, 50_000, 100_000, 3, MAX_MESSAGE, 5);

    @ShmTestDirectory
    private Path directory;

    /** Message {@code index}: {@code size} bytes that differ from one message and one position to the next. */
    private static byte[] message(final int index, final int size) {
        final byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (index * 31 + i * 7 + (i >>> 8));
        }
        return bytes;
    }

    private static List<byte[]> messages() {
        final List<byte[]> messages = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            for (final int size : SIZES) {
                messages.add(message(messages.size(), size));
            }
        }
        return messages;
    }

    /** A server that sends the messages and keeps the connection open until the client goes. */
    private DisposableServer sendingServer(final String address, final List<byte[]> messages) {
        return sendingServer(address, messages, false);
    }

    /**
     * @param asDirectBuffers each message as an {@link UnsafeBuffer} of its own, sent with {@code DIRECT_BUFFER}, whose
     *                        encoded bytes are the element itself: fragments are copied straight from it; else as a
     *                        {@code byte[]}, encoded into the stream's scratch buffer before it is fragmented
     */
    private DisposableServer sendingServer(final String address, final List<byte[]> messages,
                                           final boolean asDirectBuffers) {
        return ShmTestSupport.server(directory, address).maxMessageLength(MAX_MESSAGE)
            .handle((in, out) -> (asDirectBuffers
                ? out.send(Flux.fromIterable(messages).map(bytes -> (DirectBuffer) new UnsafeBuffer(bytes)),
                    Codecs.DIRECT_BUFFER)
                : out.send(Flux.fromIterable(messages), Codecs.BYTE_ARRAY)).then(Mono.never()))
            .bind().block(ShmTestSupport.BOUND);
    }

    private Connection connect(final String address) {
        return ShmTestSupport.client(directory, address).rings(4, RING_CAPACITY).maxMessageLength(MAX_MESSAGE)
            .connect().block(ShmTestSupport.BOUND);
    }

    @ParameterizedTest(name = "sent as direct buffers: {0}")
    @ValueSource(booleans = {false, true})
    void receiveViewsHandsOverViewsOfExactlyTheBytesSentWholeOrFragmented(final boolean asDirectBuffers) {
        final String address = ShmTestSupport.uniqueAddress("views");
        final List<byte[]> sent = messages();
        final DisposableServer server = sendingServer(address, sent, asDirectBuffers);
        try {
            final Connection connection = connect(address);
            final List<String> problems = new ArrayList<>();
            final int[] index = {0};
            StepVerifier.create(connection.inbound().receiveViews().take(sent.size()))
                .thenConsumeWhile(view -> {
                    // inside onNext: the view is valid now
                    final byte[] expected = sent.get(index[0]);
                    final byte[] actual = new byte[view.capacity()];
                    view.getBytes(0, actual);
                    if (!java.util.Arrays.equals(actual, expected)) {
                        problems.add("message " + index[0] + " of " + expected.length + " bytes arrived as "
                            + actual.length + " bytes" + (actual.length == expected.length ? " that differ" : ""));
                    }
                    index[0]++;
                    return true;
                })
                .expectComplete()
                .verify(ShmTestSupport.BOUND);
            assertThat(problems).as("messages whose view did not hold exactly the bytes sent").isEmpty();
            assertThat(index[0]).isEqualTo(sent.size());
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void receiveViewsHandsOverOneViewRewrappedForEveryMessageSoItAllocatesNone() {
        final String address = ShmTestSupport.uniqueAddress("one-view");
        final List<byte[]> sent = messages();
        final DisposableServer server = sendingServer(address, sent);
        try {
            final Connection connection = connect(address);
            final java.util.Set<DirectBuffer> views =
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            final int[] lengthsRight = {0};
            final int[] index = {0};
            StepVerifier.create(connection.inbound().receiveViews().take(sent.size()))
                .thenConsumeWhile(view -> {
                    views.add(view);
                    if (view.capacity() == sent.get(index[0]).length) {
                        lengthsRight[0]++;
                    }
                    index[0]++;
                    return true;
                })
                .expectComplete()
                .verify(ShmTestSupport.BOUND);
            assertThat(index[0]).isEqualTo(sent.size());
            assertThat(lengthsRight[0]).as("views that had their own message's length").isEqualTo(sent.size());
            assertThat(views).as("view objects handed to one subscriber: one, rewrapped for every message (keep a "
                + "reference after onNext returns and it shows another message)").hasSize(1);
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void copiesMadeInsideOnNextOutliveTheViews() {
        final String address = ShmTestSupport.uniqueAddress("copies");
        final List<byte[]> sent = messages();
        final DisposableServer server = sendingServer(address, sent);
        try {
            final Connection connection = connect(address);
            final List<byte[]> copies = connection.inbound().receiveViews()
                .map(view -> {
                    final byte[] copy = new byte[view.capacity()];
                    view.getBytes(0, copy);
                    return copy;
                })
                .take(sent.size())
                .collectList()
                .block(ShmTestSupport.BOUND);
            assertThat(copies).as("copies, checked after every view is gone").hasSameSizeAs(sent);
            for (int i = 0; i < sent.size(); i++) {
                assertThat(copies.get(i)).as("message %d", i).isEqualTo(sent.get(i));
            }
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void aServerWhosePublisherFailsFailsTheClientsFluxWithItsMessage() {
        final String address = ShmTestSupport.uniqueAddress("failing-server");
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> out.send(Flux.just("a", "b")
                .concatWith(Flux.error(new IllegalStateException("the disk is on fire"))), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = ShmTestSupport.client(directory, address).connect()
                .block(ShmTestSupport.BOUND);
            StepVerifier.create(connection.inbound().receive(Codecs.UTF8_STRING))
                .expectNext("a", "b")
                .expectErrorSatisfies(error -> {
                    assertThat(error).isInstanceOf(RdmaStreamException.class)
                        .hasMessageContaining("the disk is on fire");
                    assertThat(((RdmaStreamException) error).code()).as("code: the publisher failed").isEqualTo(1);
                })
                .verify(ShmTestSupport.BOUND);
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void aClientWhosePublisherFailsFailsItsSendAndTheServersFluxWithItsMessage() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("failing-client");
        final CompletableFuture<Throwable> serverSaw = new CompletableFuture<>();
        final List<String> serverReceived = new ArrayList<>();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> in.receive(Codecs.UTF8_STRING)
                .doOnNext(serverReceived::add)
                .doOnError(serverSaw::complete)
                .doOnComplete(() -> serverSaw.complete(null))
                .then())
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = ShmTestSupport.client(directory, address).connect()
                .block(ShmTestSupport.BOUND);
            final IllegalArgumentException failure = new IllegalArgumentException("no more paper");
            final AtomicReference<Throwable> sendError = new AtomicReference<>();
            StepVerifier.create(connection.outbound().send(Flux.just("x", "y", "z").concatWith(Flux.error(failure)),
                    Codecs.UTF8_STRING))
                .consumeErrorWith(sendError::set)
                .verify(ShmTestSupport.BOUND);
            assertThat(sendError.get()).as("the send Mono fails with the publisher's own error").isSameAs(failure);
            assertThat(serverSaw).succeedsWithin(ShmTestSupport.BOUND)
                .isInstanceOf(RdmaStreamException.class)
                .satisfies(error -> assertThat(error.getMessage()).contains("no more paper"));
            assertThat(serverReceived).containsExactly("x", "y", "z");
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void aCodecWhoseEncodedBytesAreShorterThanItsLengthFailsTheSendNamingBoth() {
        final String address = ShmTestSupport.uniqueAddress("short-bytes");
        final CompletableFuture<Throwable> serverSaw = new CompletableFuture<>();
        final DisposableServer server = ShmTestSupport.server(directory, address).maxMessageLength(MAX_MESSAGE)
            .handle((in, out) -> in.receiveViews().doOnError(serverSaw::complete)
                .doOnComplete(() -> serverSaw.complete(null)).then())
            .bind().block(ShmTestSupport.BOUND);
        // claims one byte more than the bytes it hands over: a message larger than a frame must not be sent from them
        final Codec<DirectBuffer> lying = new Codec<>() {
            @Override
            public String name() {
                return "lying";
            }

            @Override
            public int encodedLength(final DirectBuffer value) {
                return value.capacity() + 1;
            }

            @Override
            public int encode(final DirectBuffer value, final MutableDirectBuffer buffer, final int offset,
                              final int maxLength) {
                buffer.putBytes(offset, value, 0, value.capacity());
                buffer.putByte(offset + value.capacity(), (byte) 0);
                return value.capacity() + 1;
            }

            @Override
            public DirectBuffer decode(final DirectBuffer buffer, final int offset, final int length) {
                return buffer;
            }

            @Override
            public DirectBuffer encodedBytes(final DirectBuffer value) {
                return value;
            }
        };
        try {
            final Connection connection = connect(address);
            StepVerifier.create(connection.outbound().send(
                    Flux.just((DirectBuffer) new UnsafeBuffer(new byte[2 * LARGEST_WHOLE])), lying))
                .expectErrorSatisfies(error -> assertThat(error.getMessage())
                    .contains("lying gave " + 2 * LARGEST_WHOLE + " bytes as the encoding of a message of "
                        + (2 * LARGEST_WHOLE + 1)))
                .verify(ShmTestSupport.BOUND);
            assertThat(serverSaw).succeedsWithin(ShmTestSupport.BOUND).isInstanceOf(RdmaStreamException.class);
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void connectingWhereNoServerListensFailsNamingTheAddressAndLeavesNothing() {
        final String address = ShmTestSupport.uniqueAddress("nobody-home");
        assertThatThrownBy(() -> ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND))
            .isInstanceOf(RdmaConnectionException.class)
            .hasMessageContaining(address);
        assertThat(ShmTestSupport.files(directory)).as("files left by the failed connect").isEmpty();
        org.awaitility.Awaitility.await().atMost(ShmTestSupport.BOUND).untilAsserted(() ->
            assertThat(ShmTestSupport.runtimeThreads(address)).as("threads left by the failed connect").isEmpty());
    }
}
