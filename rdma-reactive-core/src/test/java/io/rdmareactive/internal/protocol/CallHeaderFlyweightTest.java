package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;

/** The header of a call stream's messages: what is written reads back, and any bytes at all are checked safely. */
class CallHeaderFlyweightTest {

    @Property
    void aWrittenHeaderReadsBackAndPassesItsCheck(
        @ForAll @IntRange(min = 0, max = CallHeaderFlyweight.MAX_CALLS - 1) final int callId,
        @ForAll @IntRange(min = CallHeaderFlyweight.CALL, max = CallHeaderFlyweight.ABORTED) final int type,
        @ForAll @IntRange(min = 0, max = 64) final int bodyLength, @ForAll final boolean toOpener,
        @ForAll @IntRange(min = 0, max = 16) final int offset) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[offset + CallHeaderFlyweight.LENGTH + bodyLength]);
        CallHeaderFlyweight.write(buffer, offset, callId, type);
        final CallHeaderFlyweight header = new CallHeaderFlyweight().wrap(buffer, offset);
        assertThat(header.callId()).isEqualTo(callId);
        assertThat(header.type()).isEqualTo(type);
        assertThat(CallHeaderFlyweight.check(buffer, offset, CallHeaderFlyweight.LENGTH + bodyLength, toOpener))
            .isNull();
    }

    @Property
    void anyBytesAreAcceptedExactlyWhenLongEnoughWithAnIdInRangeAndATypeOfTheirDirection(
        @ForAll @Size(max = 24) final byte[] bytes, @ForAll final boolean toOpener) {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final String wrong = CallHeaderFlyweight.check(buffer, 0, bytes.length, toOpener); // never throws
        if (bytes.length < CallHeaderFlyweight.LENGTH) {
            assertThat(wrong).contains("shorter than its 8-byte header");
            return;
        }
        final int callId = buffer.getInt(0, CallHeaderFlyweight.BYTE_ORDER);
        final int type = buffer.getInt(4, CallHeaderFlyweight.BYTE_ORDER);
        final int last = toOpener ? CallHeaderFlyweight.NOT_ENCODED : CallHeaderFlyweight.ABORTED;
        final boolean valid = callId >= 0 && callId < CallHeaderFlyweight.MAX_CALLS && type >= 1 && type <= last;
        assertThat(wrong == null).as("accepted: id %d, type %d", callId, type).isEqualTo(valid);
        if (!valid) {
            assertThat(wrong).containsAnyOf("call id " + callId, "type " + type);
        }
    }

    @Property
    void idsAndTypesNearTheEdgesAreJudgedRight(@ForAll @IntRange(min = -2, max = 1026) final int callId,
                                              @ForAll @IntRange(min = -1, max = 6) final int type,
                                              @ForAll final boolean toOpener) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CallHeaderFlyweight.LENGTH]);
        CallHeaderFlyweight.write(buffer, 0, callId, type);
        final int last = toOpener ? CallHeaderFlyweight.NOT_ENCODED : CallHeaderFlyweight.ABORTED;
        final boolean valid = callId >= 0 && callId < CallHeaderFlyweight.MAX_CALLS && type >= 1 && type <= last;
        assertThat(CallHeaderFlyweight.check(buffer, 0, CallHeaderFlyweight.LENGTH, toOpener) == null)
            .isEqualTo(valid);
    }
}
