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
 * <p>Three MACs, each keyed with the shared secret and bound to both nonces, both handshakes' settings (their
 * first {@link #SETTINGS_LENGTH} bytes: magic, version, flags, streams, rings, message length) and the connection's
 * endpoints (the client's, then the server's: {@link io.rdmareactive.spi.QueuePair#localEndpoint()}), so that a host
 * that relays a client's handshake to a server over a connection of its own gets MACs that do not check:
 * <ul>
 *   <li>{@code "rr-server"}: the server's answer, cut to {@link #ANSWER_MAC_LENGTH} bytes to fit the private data;</li>
 *   <li>{@code "rr-client"}: the client's proof, over its receive region's key, address and length too;</li>
 *   <li>{@code "rr-keys"}: the server's keys message, over its key, address and length.</li>
 * </ul>
 */
public final class HandshakeAuthentication {

    /** The shortest secret accepted. */
    public static final int MIN_SECRET_LENGTH = 16;
    /** Bytes of each nonce. */
    static final int NONCE_LENGTH = 16;
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
