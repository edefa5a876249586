package dev.cairn.bench.e2e;

import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.serialization.Serializer;

/**
 * How the benchmark signs what it produces to the acks topic (TaskStarted and acks; it sends no declines), as
 * sidecars do in the coordinator's default, secured mode. {@link #signed()}: a generated master key, given to
 * every coordinator of the run ({@link #masterKey()}), and each job's key derived from it when the job is made
 * ({@link #add}, outside every clock, its MAC initialised on the calling thread), as a sidecar holds its job's key
 * from its start. {@link #ackSerializer()} then signs every record in the producer's serializer, as a sidecar's
 * producer does ({@link SigningSerializer}), so the HMAC of every value is inside the measured time.
 * {@link #requestSerializer()} signs job specs and trigger requests with the requests key derived from the same
 * master key, as the REST API and the CLI do. {@link #unsigned()}: no keys, records and requests without a signature
 * header, coordinators without a master key (as the coordinator's {@code --allow-unsigned-sidecar-records
 * --allow-unsigned-requests}).
 */
final class SidecarKeys {

    private final SigningKey master;
    private final Map<String, SigningKey> jobKeys = new ConcurrentHashMap<>();

    private SidecarKeys(SigningKey master) {
        this.master = master;
    }

    /** Records signed with job keys derived from a freshly generated master key. */
    static SidecarKeys signed() {
        return new SidecarKeys(SigningKey.generate());
    }

    /** Records unsigned; the coordinators accept them without a master key. */
    static SidecarKeys unsigned() {
        return new SidecarKeys(null);
    }

    boolean isSigned() {
        return master != null;
    }

    /** The master key for the coordinators; {@code null} when unsigned. */
    SigningKey masterKey() {
        return master;
    }

    /** Derives {@code jobId}'s key now, so that no record pays for it; nothing when unsigned. */
    void add(String jobId) {
        if (master != null) {
            jobKeys.computeIfAbsent(jobId, id -> {
                SigningKey key = master.jobKey(id);
                key.mac(new byte[0]);
                return key;
            });
        }
    }

    /** The key of {@code jobId}: its key derived by {@link #add}, or derived now for a job never added. */
    SigningKey jobKey(String jobId) {
        if (master == null) {
            throw new IllegalStateException("unsigned: there are no job keys");
        }
        SigningKey key = jobKeys.get(jobId);
        if (key == null) {
            add(jobId);
            key = jobKeys.get(jobId);
        }
        return key;
    }

    /**
     * A new serializer of acks-topic records for one producer: Cairn's Avro serializer, wrapped in a
     * {@link SigningSerializer} that signs each value with the key of the job the record names when signed.
     */
    Serializer<AckEnvelope> ackSerializer() {
        Serializer<AckEnvelope> avro = CairnSerdes.acks().serializer();
        return master == null ? avro : new SigningSerializer<>(avro, envelope -> jobKey(EnvelopeJobIds.of(envelope)));
    }

    /**
     * A new serializer of requests-topic records for one producer: Cairn's Avro serializer, wrapped in a
     * {@link SigningSerializer} that signs each value with the requests key when signed.
     */
    Serializer<RequestEnvelope> requestSerializer() {
        Serializer<RequestEnvelope> avro = CairnSerdes.requests().serializer();
        return master == null ? avro : new SigningSerializer<>(avro, master.requestsKey());
    }
}
