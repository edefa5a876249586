package dev.cairn.auth;

import dev.cairn.events.serde.EventDecodingException;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes with {@code inner}, then checks the record's {@value RecordSignatures#HEADER} against the key of
 * the job the decoded record names, derived from the master keys: a record without a signature fails with
 * {@link EventDecodingException.Problem#UNSIGNED}, one whose signature does not match (forged, signed with
 * another job's key, or altered on the way) with {@link EventDecodingException.Problem#BAD_SIGNATURE}.
 * Kafka Streams sends either to the dead-letter topic with that reason.
 *
 * <p>During a key rotation the job's key derived from the previous master key is accepted too, until the end of the
 * overlap as {@code clock} tells it, the record's {@value RecordSignatures#KEY_ID_HEADER} naming which key signed it
 * ({@code SignatureCheck}). Derived job keys are cached (at most {@value #MAX_CACHED_KEYS} jobs), so that a record
 * costs one HMAC, not a key derivation.
 *
 * @param <T> the record type
 */
public final class VerifyingDeserializer<T> implements Deserializer<T> {

    static final int MAX_CACHED_KEYS = 10_000;

    private final Deserializer<T> inner;
    private final RotatingKeys masterKeys;
    private final Function<T, String> jobIdOf;
    private final Clock clock;
    private final Map<String, RotatingKeys> jobKeys = new ConcurrentHashMap<>();

    /** Accepts the keys derived from {@code masterKey} only. */
    public VerifyingDeserializer(Deserializer<T> inner, SigningKey masterKey, Function<T, String> jobIdOf) {
        this(inner, RotatingKeys.of(masterKey), jobIdOf, Clock.systemUTC());
    }

    /**
     * @param masterKeys the master keys the job keys are derived from (the previous one during a rotation)
     * @param jobIdOf the job a decoded record belongs to
     * @param clock what tells whether the previous key's overlap has ended
     */
    public VerifyingDeserializer(Deserializer<T> inner, RotatingKeys masterKeys, Function<T, String> jobIdOf,
            Clock clock) {
        this.inner = inner;
        this.masterKeys = masterKeys;
        this.jobIdOf = jobIdOf;
        this.clock = clock;
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return deserialize(topic, null, data);
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        T record = inner.deserialize(topic, headers, data);
        String jobId = jobIdOf.apply(record);
        byte[] signature = RecordSignatures.signature(headers);
        if (signature == null) {
            throw new EventDecodingException(EventDecodingException.Problem.UNSIGNED, "the record on topic " + topic
                    + " for job '" + jobId + "' has no " + RecordSignatures.HEADER
                    + " header; this coordinator accepts only records signed with the job's key", null);
        }
        SignatureCheck.verify(jobKeys(jobId), RecordSignatures.keyId(headers), data, signature, clock,
                () -> "the record on topic " + topic + " for job '" + jobId + "'", "another job's key");
        return record;
    }

    private RotatingKeys jobKeys(String jobId) {
        RotatingKeys keys = jobKeys.get(jobId);
        if (keys == null) {
            if (jobKeys.size() >= MAX_CACHED_KEYS) {
                jobKeys.clear();
            }
            keys = masterKeys.derive(master -> master.jobKey(jobId));
            jobKeys.put(jobId, keys);
        }
        return keys;
    }

    @Override
    public void close() {
        inner.close();
    }
}
