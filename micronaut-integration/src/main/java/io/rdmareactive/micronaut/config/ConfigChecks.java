package io.rdmareactive.micronaut.config;

import io.micronaut.context.exceptions.ConfigurationException;
import io.rdmareactive.RdmaServer;
import java.time.Duration;

/** The checks the configuration setters make, each failing with a message that names the key. */
final class ConfigChecks {

    private ConfigChecks() {
    }

    static int positive(final String key, final int value) {
        if (value < 1) {
            throw new ConfigurationException(key + " must be at least 1; it is " + value);
        }
        return value;
    }

    static Duration positive(final String key, final Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new ConfigurationException(key + " must be a positive duration; it is " + value);
        }
        return value;
    }

    static int powerOfTwo(final String key, final int value, final int minimum) {
        if (value < minimum || Integer.bitCount(value) != 1) {
            throw new ConfigurationException(key + " must be a power of two of at least " + minimum + "; it is "
                + value);
        }
        return value;
    }

    static String idleStrategy(final String key, final String value) {
        try {
            RdmaServer.create().idleStrategy(value);
        } catch (final RuntimeException ex) {
            throw new ConfigurationException(key + " is not an idle strategy (busy-spin, yielding, backoff, "
                + "sleeping[:duration]): " + ex.getMessage(), ex);
        }
        return value;
    }

    /**
     * @return {@code true} or {@code false} as written (in any case, surrounding blanks ignored); anything else is a
     * {@link ConfigurationException} naming the key, where Micronaut's own conversion would take it for false
     */
    static boolean flag(final String key, final String value) {
        final String text = value == null ? "" : value.strip();
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw new ConfigurationException(key + " must be true or false; it is '" + value + "'");
    }

    /** @return the category, once the library's own check (not blank) has passed, or a {@link ConfigurationException} */
    static String wiretapCategory(final String key, final String value) {
        try {
            RdmaServer.create().wiretap(value);
        } catch (final RuntimeException ex) {
            throw new ConfigurationException(key + " must name a logger, e.g. wire.orders; it is '" + value + "'",
                ex);
        }
        return value;
    }

    /** @return the decoded secret, or a {@link ConfigurationException} naming the key (never the value) */
    static byte[] secret(final String key, final String value) {
        final byte[] decoded;
        try {
            decoded = java.util.Base64.getDecoder().decode(value == null ? "" : value.strip());
        } catch (final IllegalArgumentException ex) {
            throw new ConfigurationException(key + " must be base64 (e.g. from 'openssl rand -base64 32'): "
                + ex.getMessage());
        }
        try {
            RdmaServer.create().secret(decoded); // the library's own check of a secret
        } catch (final IllegalArgumentException ex) {
            throw new ConfigurationException(key + " decodes to " + decoded.length + " bytes: too short; use random "
                + "bytes, e.g. 'openssl rand -base64 32'");
        }
        return decoded;
    }
}
