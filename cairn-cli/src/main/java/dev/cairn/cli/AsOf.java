package dev.cairn.cli;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The point of the journal {@code cairn audit state --as-of} names: an offset of the job's partition (a whole
 * number) or a time (ISO-8601 with a zone, e.g. {@code 2024-06-01T12:00:00Z} or {@code 2024-06-01T14:00:00+02:00}).
 *
 * @param offset the last offset to apply, or {@code null}
 * @param timeMs the latest record timestamp to apply (epoch ms), or {@code null}
 */
record AsOf(Long offset, Long timeMs) {

    /**
     * @throws IllegalArgumentException saying what a valid value looks like
     */
    static AsOf parse(String value) {
        String text = value == null ? "" : value.strip();
        if (text.matches("\\d+")) {
            try {
                return new AsOf(Long.parseLong(text), null);
            } catch (NumberFormatException e) {
                throw invalid(value);
            }
        }
        try {
            return new AsOf(null, Instant.parse(text).toEpochMilli());
        } catch (DateTimeParseException e) {
            try {
                return new AsOf(null, OffsetDateTime.parse(text).toInstant().toEpochMilli());
            } catch (DateTimeParseException again) {
                throw invalid(value);
            }
        }
    }

    private static IllegalArgumentException invalid(String value) {
        return new IllegalArgumentException("--as-of: '" + value + "' is neither an offset (a whole number, e.g. 1200) "
                + "nor a time (ISO-8601 with a zone, e.g. 2024-06-01T12:00:00Z)");
    }

    /** How the output names the point. */
    String describe() {
        return offset != null ? "offset " + offset : Instant.ofEpochMilli(timeMs).toString();
    }
}
