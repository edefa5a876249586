package dev.cairn.auth;

import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.serde.EventDecodingException.Problem;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Checks one signature against the keys a verifier holds ({@link RotatingKeys}), choosing the key by the record's
 * {@value RecordSignatures#KEY_ID_HEADER}: the current key's id is checked with the current key, the previous key's
 * with the previous one while its overlap lasts (after it the record is refused, naming the instant the overlap
 * ended), any other id is refused. A record without key id (written by an earlier release) is checked with the
 * current key, then with the previous one under the same rule. Every refusal is {@link Problem#BAD_SIGNATURE}.
 */
final class SignatureCheck {

    private static final Pattern KEY_ID = Pattern.compile("[0-9a-f]{" + 2 * SigningKey.ID_BYTES + "}");

    private SignatureCheck() {
    }

    /**
     * @param keys the keys that may have signed the record
     * @param keyId the record's key id header; {@code null} when it has none
     * @param data the record's value
     * @param signature the record's signature header, not {@code null}
     * @param clock when the record is read, asked only when the previous key is involved
     * @param record what the record is, for messages ("the record on topic cairn.acks for job 'orders'"): built only
     *     when the record is refused, so that an accepted record (every ack) costs no message
     * @param wrongKeys which other keys a refused record may have been signed with, for messages
     * @throws EventDecodingException ({@link Problem#BAD_SIGNATURE}) when no key accepted at {@code now} signed it
     */
    static void verify(RotatingKeys keys, String keyId, byte[] data, byte[] signature, Clock clock,
            Supplier<String> record, String wrongKeys) {
        if (keyId == null) {
            verifyWithoutKeyId(keys, data, signature, clock, record, wrongKeys);
        } else if (keyId.equals(keys.current().id())) {
            requireMatch(keys.current(), data, signature, record);
        } else if (keys.previous() != null && keyId.equals(keys.previous().id())) {
            requireOverlap(keys, clock.instant(), record);
            requireMatch(keys.previous(), data, signature, record);
        } else {
            Instant now = clock.instant();
            String named = KEY_ID.matcher(keyId).matches() ? "key " + keyId
                    : "a malformed " + RecordSignatures.KEY_ID_HEADER + " header (" + keyId.length() + " characters, "
                            + "not 16 hex digits)";
            throw refused(record.get() + " is signed with " + named + ", which is not one this coordinator accepts ("
                    + accepted(keys, now) + "): signed with " + wrongKeys + ", or forged");
        }
    }

    private static void verifyWithoutKeyId(RotatingKeys keys, byte[] data, byte[] signature, Clock clock,
            Supplier<String> record, String wrongKeys) {
        if (data != null && keys.current().verifies(data, signature)) {
            return;
        }
        if (data != null && keys.previous() != null && keys.previous().verifies(data, signature)) {
            requireOverlap(keys, clock.instant(), record);
            return;
        }
        Instant now = clock.instant();
        throw refused("the signature of " + record.get() + " (without " + RecordSignatures.KEY_ID_HEADER
                + " header, as written before 0.4) does not match its value under " + accepted(keys, now)
                + ": signed with " + wrongKeys + ", forged, or altered after signing");
    }

    private static void requireOverlap(RotatingKeys keys, Instant now, Supplier<String> record) {
        if (!keys.inOverlap(now)) {
            throw refused(record.get() + " is signed with the previous key " + keys.previous().id()
                    + ", which was accepted only until " + keys.previousUntil() + " (the end of the key rotation's "
                    + "overlap): sign it with the current key " + keys.current().id());
        }
    }

    private static void requireMatch(SigningKey key, byte[] data, byte[] signature, Supplier<String> record) {
        if (data == null || !key.verifies(data, signature)) {
            throw refused("the signature of " + record.get() + " does not match its value under key " + key.id()
                    + ", the key its " + RecordSignatures.KEY_ID_HEADER + " header names: forged, or altered after "
                    + "signing");
        }
    }

    private static String accepted(RotatingKeys keys, Instant now) {
        return keys.inOverlap(now) ? "key " + keys.current().id() + " or, until " + keys.previousUntil()
                + ", the previous key " + keys.previous().id() : "key " + keys.current().id();
    }

    private static EventDecodingException refused(String message) {
        return new EventDecodingException(Problem.BAD_SIGNATURE, message, null);
    }
}
