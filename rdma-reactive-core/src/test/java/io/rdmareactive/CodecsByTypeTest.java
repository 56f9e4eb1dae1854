package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import io.rdmareactive.codec.CodecRanges;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.codec.NoSuchCodecException;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The API picks codecs by Java type from the connection's {@link CodecRegistry}: {@code receive(Order.class)},
 * {@code send(orders, Order.class)} and the interaction models with classes; the built-ins by default, the
 * registry given to the client and server otherwise; a missing codec is reported at once with the type's name.
 */
class CodecsByTypeTest {

    /** What the application sends, through a codec of its own. */
    record Order(long id, int quantity) {
    }

    /** A fixed 12-byte codec for {@link Order}, little-endian. */
    static final Codec<Order> ORDERS = new Codec<>() {
        @Override
        public String name() {
            return "order";
        }

        @Override
        public int encodedLength(final Order value) {
            return 12;
        }

        @Override
        public int encode(final Order value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
            CodecRanges.checkEncodeRange(name(), buffer, offset, maxLength);
            if (maxLength < 12) {
                throw CodecRanges.doesNotFit(name(), 12, offset, maxLength);
            }
            buffer.putLong(offset, value.id(), ByteOrder.LITTLE_ENDIAN);
            buffer.putInt(offset + 8, value.quantity(), ByteOrder.LITTLE_ENDIAN);
            return 12;
        }

        @Override
        public Order decode(final DirectBuffer buffer, final int offset, final int length) {
            CodecRanges.checkDecodeRange(name(), buffer, offset, length);
            if (length != 12) {
                throw new CodecException(name(), "an order is 12 bytes, not " + length);
            }
            return new Order(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN),
                buffer.getInt(offset + 8, ByteOrder.LITTLE_ENDIAN));
        }

        @Override
        public boolean decodesToView() {
            return false;
        }
    };

    private static final CodecRegistry REGISTRY = CodecRegistry.defaults().with(Order.class, ORDERS);

    @ShmTestDirectory
    private Path directory;
    private String address;

    @BeforeEach
    void newAddress() {
        address = ShmTestSupport.uniqueAddress("types");
    }

    @Test
    void theBuiltInCodecsArePickedByTypeWithNoRegistryConfigured() {
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> out.send(in.receive(Long.class).map(n -> n * 2), Long.class))
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = ShmTestSupport.client(directory, address).connect()
                .block(ShmTestSupport.BOUND);
            assertThat(connection.codecs()).isSameAs(CodecRegistry.defaults());
            StepVerifier.create(connection.inbound().receive(long.class)
                    .doOnSubscribe(s -> connection.outbound().send(Flux.range(0, 1000).map(i -> (long) i), Long.class)
                        .subscribe()))
                .expectNextSequence(Flux.range(0, 1000).map(i -> 2L * i).collectList().block())
                .verifyComplete();
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void aConfiguredRegistryServesTheApplicationsTypesOnEverySide() {
        final DisposableServer server = ShmTestSupport.server(directory, address).codecs(REGISTRY)
            .handle((in, out) -> out.send(in.receive(Order.class)
                .map(order -> new Order(order.id(), order.quantity() + 1)), Order.class))
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = ShmTestSupport.client(directory, address).codecs(REGISTRY).connect()
                .block(ShmTestSupport.BOUND);
            final List<Order> orders = List.of(new Order(1, 10), new Order(2, 20), new Order(Long.MAX_VALUE, -1));
            StepVerifier.create(connection.inbound().receive(Order.class)
                    .doOnSubscribe(s -> connection.outbound().send(Flux.fromIterable(orders), Order.class).subscribe()))
                .expectNext(new Order(1, 11), new Order(2, 21), new Order(Long.MAX_VALUE, 0))
                .verifyComplete();
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void theInteractionModelsTakeClassesToo() {
        final List<Order> fired = new java.util.concurrent.CopyOnWriteArrayList<>();
        final DisposableServer server = ShmTestSupport.server(directory, address).codecs(REGISTRY)
            .handleStreams((kind, in, out) -> kind == StreamKind.FIRE_AND_FORGET
                ? in.receive(Order.class).doOnNext(fired::add).then()
                : out.send(in.receive(Order.class).map(order -> "order " + order.id() + " x" + order.quantity()),
                    String.class))
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = ShmTestSupport.client(directory, address).codecs(REGISTRY).connect()
                .block(ShmTestSupport.BOUND);
            StepVerifier.create(connection.requestResponse(new Order(7, 3), Order.class, String.class))
                .expectNext("order 7 x3").verifyComplete();
            StepVerifier.create(connection.requestStream(new Order(8, 1), Order.class, String.class))
                .expectNext("order 8 x1").verifyComplete();
            StepVerifier.create(connection.requestChannel(Flux.just(new Order(1, 1), new Order(2, 2)), Order.class,
                    String.class))
                .expectNext("order 1 x1", "order 2 x2").verifyComplete();
            StepVerifier.create(connection.fireAndForget(new Order(9, 9), Order.class)).verifyComplete();
            org.awaitility.Awaitility.await().atMost(ShmTestSupport.BOUND)
                .until(() -> fired.equals(List.of(new Order(9, 9))));
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void aTypeWithNoCodecIsReportedAtOnceWithItsName() {
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> Mono.never())
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = ShmTestSupport.client(directory, address).connect()
                .block(ShmTestSupport.BOUND);
            assertThatThrownBy(() -> connection.inbound().receive(Order.class))
                .isExactlyInstanceOf(NoSuchCodecException.class)
                .hasMessageStartingWith("no codec for io.rdmareactive.CodecsByTypeTest$Order");
            assertThatThrownBy(() -> connection.outbound().send(Flux.just(new Order(1, 1)), Order.class))
                .isExactlyInstanceOf(NoSuchCodecException.class)
                .hasMessageContaining("CodecRegistry.defaults().with(Order.class, codec)");
            assertThatThrownBy(() -> connection.requestResponse("hello", String.class, Order.class))
                .isExactlyInstanceOf(NoSuchCodecException.class);
            // the stream is untouched: the built-ins still work on it
            assertThat(connection.codecs().codecFor(String.class)).isSameAs(Codecs.UTF8_STRING);
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    @Test
    void theRegistryIsPartOfTheImmutableBuilders() {
        final RdmaClient plain = RdmaClient.create();
        final RdmaClient configured = plain.codecs(REGISTRY);
        assertThat(configured).isNotSameAs(plain);
        assertThatThrownBy(() -> plain.codecs(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RdmaServer.create().codecs(null)).isInstanceOf(NullPointerException.class);
    }
}
