package io.rdmareactive.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The crypto of the authenticated handshake: fresh nonces and HMAC-SHA256 over labelled parts, compared in constant
 * time. Connection setup only (it allocates); nothing here runs on the data path.
 *
 * <p>The client proves that it knows the secret before the server holds anything for it: its first connect request
 * gets a challenge ({@link HandshakeCookies}, {@link ChallengeFlyweight}), its second carries the cookie and the
 * {@code "rr-proof"} MAC over its nonce, the cookie, its settings and its own endpoint
 * ({@link io.rdmareactive.spi.QueuePair#localEndpoint()}, which the server reads from the request, so that a relayed
 * request does not check). The MACs that follow are bound to both nonces, both handshakes' settings (their first
 * {@link #SETTINGS_LENGTH} bytes: magic, version, flags, streams, rings, message length) and the connection's two
 * endpoints (the client's, then the server's):
 * <ul>
 *   <li>{@code "rr-server"}: the server's answer, cut to {@link #ANSWER_MAC_LENGTH} bytes to fit the private data;</li>
 *   <li>{@code "rr-client"}: the client's keys message, over its receive region's key, address and length too;</li>
 *   <li>{@code "rr-keys"}: the server's keys message, over its key, address and length.</li>
 * </ul>
 */
public final class HandshakeAuthentication {

    /** The shortest secret accepted. */
    public static final int MIN_SECRET_LENGTH = 16;
    /** Bytes of each nonce. */
    static final int NONCE_LENGTH = 16;
    /** Bytes of the client's proof in its connect request's private data. */
    static final int PROOF_LENGTH = 16;
    /** Bytes of the server's MAC in its answer's private data. */
    static final int ANSWER_MAC_LENGTH = 16;
    /** The settings part of a handshake that every MAC covers. */
    static final int SETTINGS_LENGTH = HandshakeFlyweight.RECEIVE_REGION_RKEY_OFFSET;
    /** Bytes of a full HMAC-SHA256. */
    static final int MAC_LENGTH = 32;
    /** A keys message (the client's proof, the server's keys): MAC, then rkey (int), address and length (longs). */
    static final int MESSAGE_LENGTH = MAC_LENGTH + 4 + 8 + 8;

    private static final SecureRandom RANDOM = new SecureRandom();

    private HandshakeAuthentication() {
    }

    /**
     * @param secret a secret from the API
     * @return a copy of it
     * @throws IllegalArgumentException if it is shorter than {@link #MIN_SECRET_LENGTH} bytes
     */
    public static byte[] checkSecret(final byte[] secret, final String where) {
        if (secret == null || secret.length < MIN_SECRET_LENGTH) {
            throw new IllegalArgumentException(where + " needs a secret of at least " + MIN_SECRET_LENGTH
                + " bytes (got " + (secret == null ? "none" : secret.length + " bytes") + "); use random bytes, "
                + "e.g. 32 from SecureRandom, shared with the peers by your own means");
        }
        return secret.clone();
    }

    /** @return a fresh nonce from {@link SecureRandom} */
    static byte[] nonce() {
        final byte[] nonce = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** @return a fresh client nonce ({@link HandshakeFlyweight#CLIENT_NONCE_LENGTH} bytes) from {@link SecureRandom} */
    static byte[] clientNonce() {
        return Arrays.copyOf(nonce(), HandshakeFlyweight.CLIENT_NONCE_LENGTH);
    }

    /**
     * The client's proof ({@code "rr-proof"}): over its nonce and the server's cookie (the 16 bytes from
     * {@link HandshakeFlyweight#AUTH_NONCE_OFFSET}), its settings and its endpoint.
     *
     * @param request  the client's second authenticated connect request (its proof bytes are not read)
     * @param endpoint the client's endpoint, as its queue pair gives it
     * @return the proof, {@link #PROOF_LENGTH} bytes
     */
    static byte[] proof(final byte[] secret, final byte[] request, final byte[] endpoint) {
        return Arrays.copyOf(mac(secret, "rr-proof", AuthExchange.nonce(request), AuthExchange.settings(request),
            endpoint), PROOF_LENGTH);
    }

    /** @return HMAC-SHA256 with the secret over the label and the parts, in order */
    static byte[] mac(final byte[] secret, final String label, final byte[]... parts) {
        try {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            for (final byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (final GeneralSecurityException ex) {
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", ex);
        }
    }

    /** @return the first {@code length} bytes of the expected MAC equal {@code actual}, compared in constant time */
    static boolean matches(final byte[] expected, final int length, final byte[] actual) {
        return MessageDigest.isEqual(Arrays.copyOf(expected, length), actual);
    }
}
