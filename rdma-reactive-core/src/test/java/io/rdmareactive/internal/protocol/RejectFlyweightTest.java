package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Bytes.le;
import static io.rdmareactive.internal.protocol.RejectFlyweight.decode;
import static io.rdmareactive.internal.protocol.RejectFlyweight.encode;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.agrona.concurrent.UnsafeBuffer;

class RejectFlyweightTest {

    @Property
    void printableAsciiRoundTripsCutAt96Bytes(
        @ForAll @StringLength(max = 200) @CharRange(from = ' ', to = '~') final String reason) {
        final byte[] privateData = encode(reason);

        final String cut = reason.substring(0, Math.min(96, reason.length()));
        assertThat(privateData).hasSize(8 + cut.length());
        assertThat(privateData.length).isLessThanOrEqualTo(RejectFlyweight.MAX_LENGTH)
            .as("what rdma_cm carries with a reject").isLessThanOrEqualTo(148);
        assertThat(le(privateData).getInt(0)).isEqualTo(0x4a525252);
        assertThat(le(privateData).getShort(4)).isEqualTo((short) 1);
        assertThat(le(privateData).getShort(6)).isEqualTo((short) cut.length());
        assertThat(new String(privateData, 8, cut.length(), StandardCharsets.US_ASCII)).isEqualTo(cut);
        assertThat(decode(privateData)).isEqualTo(cut);
        final byte[] padded = Arrays.copyOf(privateData, 148); // as an IB CM REJ delivers it
        assertThat(decode(padded)).isEqualTo(cut);
    }

    @Property
    void anyStringEncodesToPrintableAscii(@ForAll @StringLength(max = 200) final String reason) {
        final String decoded = decode(encode(reason));
        assertThat(decoded).hasSizeLessThanOrEqualTo(96);
        assertThat(decoded.chars()).allMatch(c -> c >= 0x20 && c < 0x7F);
        assertThat(decoded.length()).isEqualTo(Math.min(96, reason.codePointCount(0, reason.length())));
    }

    @Property
    void aDeviceThatCarriesLessGetsAShorterReason(
        @ForAll @StringLength(max = 200) @CharRange(from = ' ', to = '~') final String reason,
        @ForAll @net.jqwik.api.constraints.IntRange(min = 8, max = 200) final int maxPrivateDataLength) {
        final byte[] privateData = encode(reason, maxPrivateDataLength);
        final int kept = Math.min(reason.length(), Math.min(96, maxPrivateDataLength - 8));
        assertThat(privateData).hasSize(8 + kept);
        assertThat(decode(privateData)).isEqualTo(reason.substring(0, kept));
    }

    @Example
    void theReasonsThisSideGivesArriveWhole() {
        final String version = "protocol version 2 is not supported (this side speaks 1)";
        assertThat(decode(encode(version))).isEqualTo(version);
        assertThat(decode(encode(version, 56))).as("on a device that carries only 56 bytes")
            .isEqualTo("protocol version 2 is not supported (this side s");
    }

    @Example
    void replacesWhatIsNotPrintableAscii() {
        assertThat(decode(encode("caf\u00e9 \uD83D\uDE00 tab\there\n"))).isEqualTo("caf? ? tab?here?");
        assertThat(decode(encode(null))).isEmpty();
        assertThat(decode(encode(""))).isEmpty();
        assertThat(encode("x".repeat(120))).hasSize(104);
    }

    @Example
    void isNotFooledByOtherPrivateData() {
        assertThat(decode(null)).isNull();
        assertThat(decode(new byte[0])).isNull();
        assertThat(decode(new byte[7])).isNull();
        assertThat(decode(new byte[56])).as("zeros").isNull();
        final byte[] handshake = new byte[40];
        new HandshakeFlyweight().wrap(new UnsafeBuffer(handshake), 0).write(2, 4096, 1024, 1, 2, 1 << 20);
        assertThat(decode(handshake)).isNull();
        final byte[] shortOfItsReason = encode("0123456789");
        assertThat(decode(Arrays.copyOf(shortOfItsReason, 12))).as("reason length past the data").isEqualTo("0123");
        le(shortOfItsReason).putShort(6, (short) -1);
        assertThat(decode(shortOfItsReason)).as("reason length 65535").isEqualTo("0123456789");
    }

    @Property
    void decodeNeverThrowsOnGarbage(@ForAll @Size(max = 200) final byte[] privateData, @ForAll final boolean ours) {
        if (ours && privateData.length >= 4) {
            le(privateData).putInt(0, RejectFlyweight.MAGIC);
        }
        final String reason = decode(privateData);
        if (privateData.length < 8 || le(privateData).getInt(0) != RejectFlyweight.MAGIC) {
            assertThat(reason).isNull();
        } else {
            assertThat(reason).isNotNull().hasSizeLessThanOrEqualTo(Math.min(96, privateData.length - 8));
            assertThat(reason.chars()).allMatch(c -> c >= 0x20 && c < 0x7F);
        }
    }
}
