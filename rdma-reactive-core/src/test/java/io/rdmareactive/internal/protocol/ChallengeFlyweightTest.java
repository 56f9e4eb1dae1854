package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Bytes.le;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The challenge's bytes as its diagram draws them, and what its decode refuses. */
class ChallengeFlyweightTest {

    private static final byte[] COOKIE = {1, 2, 3, 4, 5, 6, 7, 8};

    @Test
    void aChallengeIsTheMagicTheVersionAZeroAndTheCookie() {
        final byte[] challenge = ChallengeFlyweight.encode(COOKIE);
        assertThat(challenge).hasSize(16);
        assertThat(le(challenge).getInt(0)).isEqualTo(0x48435252);
        assertThat(le(challenge).getShort(4)).isEqualTo((short) 1);
        assertThat(le(challenge).getShort(6)).isZero();
        assertThat(Arrays.copyOfRange(challenge, 8, 16)).isEqualTo(COOKIE);
        assertThat(ChallengeFlyweight.decode(challenge)).isEqualTo(COOKIE);
        assertThat(ChallengeFlyweight.decode(Arrays.copyOf(challenge, 148))).as("padded, as rdma_cm may deliver it")
            .isEqualTo(COOKIE);
    }

    @Test
    void anotherMagicOrVersionOrAShortOneIsNoChallenge() {
        final byte[] refusal = RejectFlyweight.encode("no");
        assertThat(ChallengeFlyweight.decode(Arrays.copyOf(refusal, 16))).isNull();
        final byte[] otherVersion = ChallengeFlyweight.encode(COOKIE);
        otherVersion[4] = 2;
        assertThat(ChallengeFlyweight.decode(otherVersion)).isNull();
        assertThat(ChallengeFlyweight.decode(Arrays.copyOf(ChallengeFlyweight.encode(COOKIE), 15))).isNull();
        assertThat(ChallengeFlyweight.decode(null)).isNull();
        assertThatThrownBy(() -> ChallengeFlyweight.encode(new byte[7])).isInstanceOf(IllegalArgumentException.class);
    }
}
