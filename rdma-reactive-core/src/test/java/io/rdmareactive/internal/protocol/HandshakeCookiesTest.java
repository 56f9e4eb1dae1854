package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A cookie checks in the slot it was issued in and the next, for the request it was issued for, at its server. */
class HandshakeCookiesTest {

    private final AtomicLong now = new AtomicLong(1_000 * HandshakeCookies.SLOT_NANOS + 5);
    private final HandshakeCookies cookies = new HandshakeCookies(now::get);

    private static byte[] request(final int nonce, final int streams) {
        final byte[] request = new byte[HandshakeFlyweight.AUTH_LENGTH];
        final org.agrona.concurrent.UnsafeBuffer buffer = new org.agrona.concurrent.UnsafeBuffer(request);
        new HandshakeFlyweight().wrap(buffer, 0).write(streams, 4096, 4096, 0, 0, 0);
        buffer.putInt(HandshakeFlyweight.AUTH_NONCE_OFFSET, nonce);
        return request;
    }

    private static byte[] withCookie(final byte[] request, final byte[] cookie) {
        final byte[] second = request.clone();
        System.arraycopy(cookie, 0, second, HandshakeFlyweight.AUTH_COOKIE_OFFSET, cookie.length);
        return second;
    }

    @Test
    void aCookieChecksInItsSlotAndTheNextOnly() {
        final byte[] request = request(7, 2);
        final byte[] second = withCookie(request, cookies.issue(request));
        assertThat(cookies.check(second)).isTrue();
        now.addAndGet(HandshakeCookies.SLOT_NANOS);
        assertThat(cookies.check(second)).as("in the next slot").isTrue();
        now.addAndGet(HandshakeCookies.SLOT_NANOS);
        assertThat(cookies.check(second)).as("two slots later: stale").isFalse();
    }

    @Test
    void aCookieIsBoundToTheNonceTheSettingsAndTheServer() {
        final byte[] request = request(7, 2);
        final byte[] cookie = cookies.issue(request);
        assertThat(cookies.check(withCookie(request(8, 2), cookie))).as("another nonce").isFalse();
        assertThat(cookies.check(withCookie(request(7, 4), cookie))).as("other settings").isFalse();
        assertThat(new HandshakeCookies(now::get).check(withCookie(request, cookie))).as("another server").isFalse();
        assertThat(cookies.check(request)).as("no cookie at all").isFalse();
    }
}
