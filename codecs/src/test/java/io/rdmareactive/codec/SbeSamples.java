package io.rdmareactive.codec;

// tag::sbe[]
import io.rdmareactive.codec.SbeCodec;
import io.rdmareactive.codec.sbe.sample.OrderDecoder;
import io.rdmareactive.codec.sbe.sample.OrderEncoder;
import io.rdmareactive.codec.sbe.sample.QuoteDecoder;
import io.rdmareactive.codec.sbe.sample.QuoteEncoder;
import io.rdmareactive.codec.sbe.sample.Side;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
// end::sbe[]
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;

/** The sample schema's messages as Java values, the SBE codecs for them, and generators. */
final class SbeSamples {

    // tag::sbe[]
    record Quote(long instrumentId, long bid, long ask, int bidSize, int askSize, int venue) {
    }

    record Leg(long instrumentId, int ratio) {
    }

    record Order(long orderId, long price, int quantity, Side side, List<Leg> legs, String symbol, String note) {
    }

    static final SbeCodec<Quote, QuoteEncoder, QuoteDecoder> QUOTES = SbeCodec.of("sbe-quote",
        QuoteEncoder::new, QuoteDecoder::new,
        (quote, encoder) -> encoder.instrumentId(quote.instrumentId()).bid(quote.bid()).ask(quote.ask())
            .bidSize(quote.bidSize()).askSize(quote.askSize()).venue(quote.venue()),
        decoder -> new Quote(decoder.instrumentId(), decoder.bid(), decoder.ask(), decoder.bidSize(),
            decoder.askSize(), decoder.venue()));

    static final SbeCodec<QuoteDecoder, QuoteEncoder, QuoteDecoder> QUOTE_VIEWS = SbeCodec.views("sbe-quote-view",
        QuoteEncoder::new, QuoteDecoder::new,
        (decoder, encoder) -> encoder.instrumentId(decoder.instrumentId()).bid(decoder.bid()).ask(decoder.ask())
            .bidSize(decoder.bidSize()).askSize(decoder.askSize()).venue(decoder.venue()));

    static final SbeCodec<Order, OrderEncoder, OrderDecoder> ORDERS = SbeCodec.<Order, OrderEncoder, OrderDecoder>of(
            "sbe-order", OrderEncoder::new, OrderDecoder::new, SbeSamples::write, SbeSamples::read)
        .withVariableLength(SbeSamples::bytesBeyondBlock);

    static void write(final Order order, final OrderEncoder encoder) {
        encoder.orderId(order.orderId()).price(order.price()).quantity(order.quantity()).side(order.side());
        final OrderEncoder.LegsEncoder legs = encoder.legsCount(order.legs().size());
        for (final Leg leg : order.legs()) {
            legs.next().instrumentId(leg.instrumentId()).ratio(leg.ratio());
        }
        encoder.symbol(order.symbol());
        encoder.note(order.note());
    }

    static Order read(final OrderDecoder decoder) {
        final long orderId = decoder.orderId();
        final long price = decoder.price();
        final int quantity = decoder.quantity();
        final Side side = decoder.side();
        final List<Leg> legs = new ArrayList<>();
        for (final OrderDecoder.LegsDecoder leg : decoder.legs()) {
            legs.add(new Leg(leg.instrumentId(), leg.ratio()));
        }
        return new Order(orderId, price, quantity, side, legs, decoder.symbol(), decoder.note());
    }

    /** The group header and entries, and each data field's 4-byte length and UTF-8 bytes. */
    static int bytesBeyondBlock(final Order order) {
        return OrderEncoder.LegsEncoder.sbeHeaderSize() + order.legs().size() * OrderEncoder.LegsEncoder.sbeBlockLength()
            + 4 + utf8Length(order.symbol()) + 4 + utf8Length(order.note());
    }

    private static int utf8Length(final String value) {
        return value.getBytes(StandardCharsets.UTF_8).length;
    }
    // end::sbe[]

    private SbeSamples() {
    }

    static Arbitrary<Quote> quotes() {
        return Builders.withBuilder(() -> new long[6])
            .use(Arbitraries.longs()).in((fields, v) -> { fields[0] = v; return fields; })
            .use(Arbitraries.longs()).in((fields, v) -> { fields[1] = v; return fields; })
            .use(Arbitraries.longs()).in((fields, v) -> { fields[2] = v; return fields; })
            .use(Arbitraries.integers()).in((fields, v) -> { fields[3] = v; return fields; })
            .use(Arbitraries.integers()).in((fields, v) -> { fields[4] = v; return fields; })
            .use(Arbitraries.integers()).in((fields, v) -> { fields[5] = v; return fields; })
            .build(f -> new Quote(f[0], f[1], f[2], (int) f[3], (int) f[4], (int) f[5]));
    }

    /** Orders with no legs to many, and symbols and notes that are empty, ASCII, non-ASCII, or large. */
    static Arbitrary<Order> orders() {
        final Arbitrary<Leg> legs = net.jqwik.api.Combinators.combine(Arbitraries.longs(), Arbitraries.integers())
            .as(Leg::new);
        final Arbitrary<String> text = Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, Arbitraries.strings().ascii().ofMaxLength(30)),
            net.jqwik.api.Tuple.of(3, Values.wellFormedStrings(40)),
            net.jqwik.api.Tuple.of(1, Values.wellFormedStrings(20).map(s -> s.repeat(3000))));
        return Builders.withBuilder(() -> new Object[7])
            .use(Arbitraries.longs()).in((f, v) -> { f[0] = v; return f; })
            .use(Arbitraries.longs()).in((f, v) -> { f[1] = v; return f; })
            .use(Arbitraries.integers()).in((f, v) -> { f[2] = v; return f; })
            .use(Arbitraries.of(Side.BUY, Side.SELL)).in((f, v) -> { f[3] = v; return f; })
            .use(legs.list().ofMaxSize(300)).in((f, v) -> { f[4] = v; return f; })
            .use(text).in((f, v) -> { f[5] = v; return f; })
            .use(text).in((f, v) -> { f[6] = v; return f; })
            .build(SbeSamples::order);
    }

    @SuppressWarnings("unchecked")
    private static Order order(final Object[] f) {
        return new Order((Long) f[0], (Long) f[1], (Integer) f[2], (Side) f[3], (List<Leg>) f[4], (String) f[5],
            (String) f[6]);
    }
}
