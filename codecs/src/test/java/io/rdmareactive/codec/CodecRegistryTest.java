package io.rdmareactive.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class CodecRegistryTest {

    interface Shape {
    }

    interface Round extends Shape {
    }

    static class Circle implements Round, Serializable {
        private static final long serialVersionUID = 1L;
    }

    static final class SmallCircle extends Circle {
        private static final long serialVersionUID = 1L;
    }

    record Order(long id) {
    }

    @Test
    void theDefaultsCoverEveryBuiltInType() {
        final CodecRegistry defaults = CodecRegistry.defaults();
        assertThat(defaults.codecFor(byte[].class)).isSameAs(Codecs.BYTE_ARRAY);
        assertThat(defaults.codecFor(ByteBuffer.class)).isSameAs(Codecs.BYTE_BUFFER);
        assertThat(defaults.codecFor(DirectBuffer.class)).isSameAs(Codecs.DIRECT_BUFFER);
        assertThat(defaults.codecFor(String.class)).isSameAs(Codecs.UTF8_STRING);
        assertThat(defaults.codecFor(Long.class)).isSameAs(Codecs.LONG);
        assertThat(defaults.codecFor(long.class)).as("a primitive means its box").isSameAs(Codecs.LONG);
        assertThat(defaults.codecFor(int.class)).isSameAs(Codecs.INT);
        assertThat(defaults.codecFor(boolean.class)).isSameAs(Codecs.BOOLEAN);
        assertThat(defaults.codecFor(double[].class)).isSameAs(Codecs.DOUBLE_ARRAY);
        assertThat(defaults.codecFor(char[].class)).isSameAs(Codecs.CHAR_ARRAY);
    }

    @Test
    void aSubtypeFindsTheCodecOfItsNearestSupertype() {
        final CodecRegistry defaults = CodecRegistry.defaults();
        assertThat(defaults.codecFor(UnsafeBuffer.class)).as("an interface of the class")
            .isSameAs(Codecs.DIRECT_BUFFER);
        assertThat(defaults.codecFor(ExpandableArrayBuffer.class)).isSameAs(Codecs.DIRECT_BUFFER);
        assertThat(defaults.codecFor(MutableDirectBuffer.class)).as("a super-interface")
            .isSameAs(Codecs.DIRECT_BUFFER);
        assertThat(defaults.codecFor(ByteBuffer.allocateDirect(1).getClass())).as("a superclass")
            .isSameAs(Codecs.BYTE_BUFFER);

        final Codec<Shape> shapes = fake("shape");
        final Codec<Circle> circles = fake("circle");
        final Codec<Round> rounds = fake("round");
        final CodecRegistry registry = CodecRegistry.empty().with(Shape.class, shapes).with(Round.class, rounds)
            .with(Circle.class, circles);
        assertThat(registry.codecFor(SmallCircle.class)).as("the superclass before interfaces").isSameAs(circles);
        assertThat(CodecRegistry.empty().with(Shape.class, shapes).with(Round.class, rounds)
            .codecFor(SmallCircle.class)).as("the nearer interface").isSameAs(rounds);
        assertThat(CodecRegistry.empty().with(Shape.class, shapes).codecFor(SmallCircle.class)).isSameAs(shapes);
    }

    @Test
    void aMissingCodecIsReportedWithTheTypesNameAndWhatToDo() {
        assertThatThrownBy(() -> CodecRegistry.defaults().codecFor(Order.class))
            .isExactlyInstanceOf(NoSuchCodecException.class)
            .hasMessageStartingWith("no codec for io.rdmareactive.codec.CodecRegistryTest$Order (nor for any of its "
                + "supertypes)")
            .hasMessageContaining("CodecRegistry.defaults().with(Order.class, codec)")
            .satisfies(e -> assertThat(((NoSuchCodecException) e).type()).isEqualTo(Order.class));
        assertThat(CodecRegistry.defaults().find(Order.class)).isEmpty();
        assertThat(CodecRegistry.empty().find(String.class)).isEmpty();
        assertThatThrownBy(() -> CodecRegistry.defaults().codecFor(Object.class))
            .as("Object is no catch-all unless registered").isInstanceOf(NoSuchCodecException.class);
    }

    @Test
    void registrationReturnsANewRegistryAndLeavesTheOldOneAlone() {
        final Codec<Order> orders = fake("order");
        final CodecRegistry withOrders = CodecRegistry.defaults().with(Order.class, orders);
        assertThat(withOrders.codecFor(Order.class)).isSameAs(orders);
        assertThat(withOrders.codecFor(String.class)).isSameAs(Codecs.UTF8_STRING);
        assertThat(CodecRegistry.defaults().find(Order.class)).isEmpty();

        final Codec<String> other = fake("other-string");
        assertThat(withOrders.with(String.class, other).codecFor(String.class)).as("replaced").isSameAs(other);
        assertThat(withOrders.codecFor(String.class)).isSameAs(Codecs.UTF8_STRING);
        assertThat(withOrders.toString()).contains("Order", "String");
    }

    @Test
    void fallbacksServeWhatIsNotRegisteredNewestFirstAndAreAskedOncePerType() {
        final AtomicInteger asked = new AtomicInteger();
        final Codec<Object> any = fake("any");
        final Codec<Object> newer = fake("newer");
        final CodecRegistry registry = CodecRegistry.defaults()
            .withFallback(type -> {
                asked.incrementAndGet();
                return any;
            })
            .withFallback(type -> type == Circle.class ? newer : null);

        assertThat(registry.codecFor(String.class)).as("registered wins").isSameAs(Codecs.UTF8_STRING);
        assertThat(registry.codecFor(Circle.class)).isSameAs(newer);
        assertThat(registry.codecFor(Order.class)).isSameAs(any);
        assertThat(registry.codecFor(Order.class)).isSameAs(any);
        assertThat(asked).as("cached").hasValue(1);
    }

    @SuppressWarnings("unchecked")
    private static <T> Codec<T> fake(final String name) {
        return (Codec<T>) new Codec<Object>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int encodedLength(final Object value) {
                return 0;
            }

            @Override
            public int encode(final Object value, final MutableDirectBuffer buffer, final int offset,
                              final int maxLength) {
                return 0;
            }

            @Override
            public Object decode(final DirectBuffer buffer, final int offset, final int length) {
                return null;
            }
        };
    }
}
