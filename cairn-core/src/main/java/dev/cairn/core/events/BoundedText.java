package dev.cairn.core.events;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Client input as the coordinator may repeat it in what it writes (rejections, dead letters, log lines): a value
 * of at most {@code maxChars} characters as it is, a longer one as its first {@code maxChars} characters, its
 * length and the start of its SHA-256, so that an oversized value can be recognised but never echoed whole.
 */
public final class BoundedText {

    /** How much of an oversized value log lines and messages quote. */
    public static final int QUOTED_CHARS = 64;

    private BoundedText() {
    }

    /** {@code value} itself when it has at most {@code maxChars} characters, else its bounded description. */
    public static String of(CharSequence value, int maxChars) {
        if (value == null) {
            return "null";
        }
        if (value.length() <= maxChars) {
            return value.toString();
        }
        String text = value.toString();
        return text.substring(0, maxChars) + "... (" + text.length() + " characters, SHA-256 "
                + sha256(text.getBytes(StandardCharsets.UTF_8)).substring(0, 16) + ")";
    }

    /** {@code value} bounded to {@link #QUOTED_CHARS} characters. */
    public static String quoted(CharSequence value) {
        return of(value, QUOTED_CHARS);
    }

    /** The SHA-256 of {@code bytes}, in lower-case hex. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
