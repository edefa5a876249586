package dev.cairn.auth;

import dev.cairn.events.serde.EventDecodingException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes with {@code inner}, then checks the record's {@value RecordSignatures#HEADER} against the key of
 * the job the decoded record names, derived from the master key: a record without a signature fails with
 * {@link EventDecodingException.Problem#UNSIGNED}, one whose signature does not match (forged, signed with
 * another job's key, or altered on the way) with {@link EventDecodingException.Problem#BAD_SIGNATURE}.
 * Kafka Streams sends either to the dead-letter topic with that reason. Derived job keys are cached (at
 * most {@value #MAX_CACHED_KEYS}).
 *
 * @param <T> the record type
 */
public final class VerifyingDeserializer<T> implements Deserializer<T> {

    static final int MAX_CACHED_KEYS = 10_000;

    private final Deserializer<T> inner;
    private final SigningKey masterKey;
    private final Function<T, String> jobIdOf;
    private final Map<String, SigningKey> jobKeys = new ConcurrentHashMap<>();

    /** @param jobIdOf the job a decoded record belongs to */
    public VerifyingDeserializer(Deserializer<T> inner, SigningKey masterKey, Function<T, String> jobIdOf) {
        this.inner = inner;
        this.masterKey = masterKey;
        this.jobIdOf = jobIdOf;
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
        if (!jobKey(jobId).verifies(data, signature)) {
            throw new EventDecodingException(EventDecodingException.Problem.BAD_SIGNATURE, "the signature of the "
                    + "record on topic " + topic + " for job '" + jobId + "' does not match: signed with another "
                    + "job's key, forged, or altered after signing", null);
        }
        return record;
    }

    private SigningKey jobKey(String jobId) {
        SigningKey key = jobKeys.get(jobId);
        if (key == null) {
            if (jobKeys.size() >= MAX_CACHED_KEYS) {
                jobKeys.clear();
            }
            key = masterKey.jobKey(jobId);
            jobKeys.put(jobId, key);
        }
        return key;
    }

    @Override
    public void close() {
        inner.close();
    }
}
