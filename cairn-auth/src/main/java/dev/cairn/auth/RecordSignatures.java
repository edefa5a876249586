package dev.cairn.auth;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Where a record's signature travels: the Kafka header {@value #HEADER}, holding the HMAC-SHA256 of the
 * record's value bytes under the key of the job the record belongs to (or the requests key), and the header
 * {@value #KEY_ID_HEADER}, holding that key's public {@link SigningKey#id()} in ASCII, so that a verifier that
 * accepts two keys during a rotation checks the one the signer used. The value names its job (every Cairn event
 * carries its job id, and the coordinator refuses a record keyed by another job), so signing the value binds the
 * signature to the job. A bit flipped anywhere in the value fails the check too. Records of releases before 0.4
 * carry no key id; verifiers then try their keys in turn.
 */
public final class RecordSignatures {

    /** The header carrying the signature. */
    public static final String HEADER = "cairn.sig.hmac-sha256";
    /** The header carrying the id of the key that made the signature. */
    public static final String KEY_ID_HEADER = "cairn.sig.key-id";

    private RecordSignatures() {
    }

    /** Replaces any signature and key id in {@code headers} with {@code key}'s signature of {@code value} and id. */
    public static void sign(Headers headers, SigningKey key, byte[] value) {
        headers.remove(HEADER);
        headers.remove(KEY_ID_HEADER);
        headers.add(HEADER, key.mac(value));
        headers.add(KEY_ID_HEADER, key.id().getBytes(StandardCharsets.US_ASCII));
    }

    /** The signature in {@code headers}, or {@code null} when there is none (the last one wins). */
    public static byte[] signature(Headers headers) {
        if (headers == null) {
            return null;
        }
        Header header = headers.lastHeader(HEADER);
        return header == null ? null : header.value();
    }

    /**
     * The key id in {@code headers} as text (not checked: whoever wrote the record chose it), or {@code null} when
     * there is none (a record of an earlier release; the last one wins).
     */
    public static String keyId(Headers headers) {
        if (headers == null) {
            return null;
        }
        Header header = headers.lastHeader(KEY_ID_HEADER);
        return header == null || header.value() == null ? null
                : new String(header.value(), StandardCharsets.ISO_8859_1);
    }
}
