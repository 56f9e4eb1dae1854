package io.rdmareactive.internal.protocol;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A server's challenge cookies: what lets it answer a connect request without a proof with a challenge and forget it.
 * A cookie is HMAC-SHA256, under a random key of this server's, over the time slot it was made in, the client's
 * nonce and the settings the client proposed, cut to {@link HandshakeFlyweight#COOKIE_LENGTH} bytes. A cookie
 * checks during its slot and the next ({@link #SLOT_NANOS} each), so a proof that binds it is fresh: a request
 * recorded earlier does not check again later, and nothing about a challenge is stored. Thread-safe.
 */
public final class HandshakeCookies {

    /** How long a slot lasts: a cookie checks for one to two of them. */
    public static final long SLOT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final byte[] key = HandshakeAuthentication.nonce();
    private final LongSupplier clock;

    /** Cookies on {@link System#nanoTime()}. */
    public HandshakeCookies() {
        this(System::nanoTime);
    }

    /** @param clock nanoseconds, for tests that move time */
    HandshakeCookies(final LongSupplier clock) {
        this.clock = clock;
    }

    /** @return the cookie for a client's first authenticated request */
    byte[] issue(final byte[] request) {
        return cookie(slot(), request);
    }

    /** @return true if the request carries a cookie this server issued in this slot or the one before */
    boolean check(final byte[] request) {
        final byte[] carried = Arrays.copyOfRange(request, HandshakeFlyweight.AUTH_COOKIE_OFFSET,
            HandshakeFlyweight.AUTH_COOKIE_OFFSET + HandshakeFlyweight.COOKIE_LENGTH);
        final long slot = slot();
        // both compared, in constant time, whichever matches
        return MessageDigest.isEqual(cookie(slot, request), carried)
            | MessageDigest.isEqual(cookie(slot - 1, request), carried);
    }

    private long slot() {
        return Math.floorDiv(clock.getAsLong(), SLOT_NANOS);
    }

    private byte[] cookie(final long slot, final byte[] request) {
        final byte[] slotBytes = new byte[Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            slotBytes[i] = (byte) (slot >>> (8 * i));
        }
        return Arrays.copyOf(HandshakeAuthentication.mac(key, "rr-cookie", slotBytes,
            Arrays.copyOfRange(request, HandshakeFlyweight.AUTH_NONCE_OFFSET,
                HandshakeFlyweight.AUTH_NONCE_OFFSET + HandshakeFlyweight.CLIENT_NONCE_LENGTH),
            AuthExchange.settings(request)), HandshakeFlyweight.COOKIE_LENGTH);
    }
}
