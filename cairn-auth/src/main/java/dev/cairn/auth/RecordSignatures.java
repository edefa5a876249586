package dev.cairn.auth;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Where a record's signature travels: the Kafka header {@value #HEADER}, holding the HMAC-SHA256 of the
 * record's value bytes under the key of the job the record belongs to. The value names its job (every
 * Cairn event carries its job id, and the coordinator refuses a record keyed by another job), so signing the
 * value binds the signature to the job. A bit flipped anywhere in the value fails the check too.
 */
public final class RecordSignatures {

    /** The header carrying the signature. */
    public static final String HEADER = "cairn.sig.hmac-sha256";

    private RecordSignatures() {
    }

    /** Replaces any signature in {@code headers} with {@code key}'s signature of {@code value}. */
    public static void sign(Headers headers, SigningKey key, byte[] value) {
        headers.remove(HEADER);
        headers.add(HEADER, key.mac(value));
    }

    /** The signature in {@code headers}, or {@code null} when there is none (the last one wins). */
    public static byte[] signature(Headers headers) {
        if (headers == null) {
            return null;
        }
        Header header = headers.lastHeader(HEADER);
        return header == null ? null : header.value();
    }
}
