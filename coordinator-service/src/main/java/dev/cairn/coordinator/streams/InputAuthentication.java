package dev.cairn.coordinator.streams;

import dev.cairn.auth.SharedKeyVerifyingDeserializer;
import dev.cairn.auth.SigningKey;
import dev.cairn.auth.VerifyingDeserializer;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import org.apache.avro.message.SchemaStore;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Which records of the coordinator's two input topics must be signed, and the deserializers that check it. With a
 * master key, every record of {@code cairn.acks} must be signed with its job's key ({@link VerifyingDeserializer}),
 * and every record of {@code cairn.requests} with the requests key ({@link SharedKeyVerifyingDeserializer}) unless
 * {@code allowUnsignedRequests}; a record that fails is dead-lettered as {@code UNSIGNED} or {@code BAD_SIGNATURE}.
 * Without a master key nothing can be checked and every record is taken unsigned (the configuration keys only
 * allow that when the operator says so, {@code CoordinatorKeys}).
 *
 *
 * <p>Both decode with the schema versions shipped and, given {@code schemas}, with those a sidecar, the CLI or the
 * REST API of another release published on the schemas topic ({@code SchemaCatalog}): a signature covers the bytes,
 * the schema only decodes them, so the checks are the same whichever schema a record was written with.
 *
 * @param masterKey the operator's master key; {@code null} checks nothing
 * @param allowUnsignedRequests whether a request without signature is taken (a signed one is still checked)
 * @param schemas where a fingerprint of no shipped schema version is looked up; {@code null}: nowhere
 */
public record InputAuthentication(SigningKey masterKey, boolean allowUnsignedRequests, SchemaStore schemas) {

    /** Nothing is checked: every record is taken unsigned. */
    public static final InputAuthentication NONE = new InputAuthentication(null, true);

    /** Records decoded with the shipped schema versions only. */
    public InputAuthentication(SigningKey masterKey, boolean allowUnsignedRequests) {
        this(masterKey, allowUnsignedRequests, null);
    }

    /** The configuration key an operator sets to take unsigned requests, named in the dead letters' messages. */
    static final String ALLOW_UNSIGNED_REQUESTS_KEY = "allow.unsigned.requests";

    /** Every record of both topics must be signed with a key derived from {@code masterKey}. */
    public static InputAuthentication signed(SigningKey masterKey) {
        return new InputAuthentication(masterKey, false);
    }

    /** What reads {@code cairn.acks}. */
    Deserializer<AckEnvelope> acks() {
        AvroEventSerde<AckEnvelope> decode = CairnSerdes.forEnvelope(AckEnvelope.class, schemas);
        return masterKey == null ? decode : new VerifyingDeserializer<>(decode, masterKey, EnvelopeJobIds::of);
    }

    /** What reads {@code cairn.requests}. */
    Deserializer<RequestEnvelope> requests() {
        AvroEventSerde<RequestEnvelope> decode = CairnSerdes.forEnvelope(RequestEnvelope.class, schemas);
        return masterKey == null ? decode
                : new SharedKeyVerifyingDeserializer<>(decode, masterKey.requestsKey(),
                        allowUnsignedRequests, "this coordinator accepts only requests signed with the requests key "
                        + "derived from its master key (the REST API signs what it publishes; the CLI signs with "
                        + "--requests-key-file, a key made by `cairn keys requests`), or set "
                        + ALLOW_UNSIGNED_REQUESTS_KEY + "=true to accept unsigned requests on a trusted network");
    }

    @Override
    public String toString() {
        return masterKey == null ? "nothing signed"
                : allowUnsignedRequests ? "signed sidecar records, unsigned requests allowed" : "signed records";
    }
}
