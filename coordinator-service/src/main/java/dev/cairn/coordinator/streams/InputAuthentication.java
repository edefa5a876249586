package dev.cairn.coordinator.streams;

import dev.cairn.auth.RotatingKeys;
import dev.cairn.auth.SharedKeyVerifyingDeserializer;
import dev.cairn.auth.SigningKey;
import dev.cairn.auth.VerifyingDeserializer;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import java.time.Clock;
import org.apache.avro.message.SchemaStore;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Which records of the coordinator's two input topics must be signed, and the deserializers that check it. With
 * master keys, every record of {@code cairn.acks} must be signed with its job's key ({@link VerifyingDeserializer}),
 * and every record of {@code cairn.requests} with the requests key ({@link SharedKeyVerifyingDeserializer}) unless
 * {@code allowUnsignedRequests}; a record that fails is dead-lettered as {@code UNSIGNED} or {@code BAD_SIGNATURE}.
 * During a key rotation the keys derived from the previous master key are accepted too, until the end of the overlap
 * as {@code clock} tells it. Without master keys nothing can be checked and every record is taken unsigned (the
 * configuration keys only allow that when the operator says so, {@code CoordinatorKeys}).
 *
 * <p>Both decode with the schema versions shipped and, given {@code schemas}, with those a sidecar, the CLI or the
 * REST API of another release published on the schemas topic ({@code SchemaCatalog}): a signature covers the bytes,
 * the schema only decodes them, so the checks are the same whichever schema a record was written with.
 *
 * @param masterKeys the operator's master key, and the previous one during a rotation; {@code null} checks nothing
 * @param allowUnsignedRequests whether a request without signature is taken (a signed one is still checked)
 * @param schemas where a fingerprint of no shipped schema version is looked up; {@code null}: nowhere
 * @param clock what tells whether a rotation's overlap has ended
 */
public record InputAuthentication(RotatingKeys masterKeys, boolean allowUnsignedRequests, SchemaStore schemas,
        Clock clock) {

    /** Nothing is checked: every record is taken unsigned. */
    public static final InputAuthentication NONE = new InputAuthentication(null, true);

    /** Records decoded with the shipped schema versions only, checked with {@code masterKey} alone. */
    public InputAuthentication(SigningKey masterKey, boolean allowUnsignedRequests) {
        this(masterKey == null ? null : RotatingKeys.of(masterKey), allowUnsignedRequests, null, Clock.systemUTC());
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
        return masterKeys == null ? decode
                : new VerifyingDeserializer<>(decode, masterKeys, EnvelopeJobIds::of, clock);
    }

    /** What reads {@code cairn.requests}. */
    Deserializer<RequestEnvelope> requests() {
        AvroEventSerde<RequestEnvelope> decode = CairnSerdes.forEnvelope(RequestEnvelope.class, schemas);
        return masterKeys == null ? decode
                : new SharedKeyVerifyingDeserializer<>(decode, masterKeys.derive(SigningKey::requestsKey),
                        allowUnsignedRequests, "this coordinator accepts only requests signed with the requests key "
                        + "derived from its master key (the REST API signs what it publishes; the CLI signs with "
                        + "--requests-key-file, a key made by `cairn keys requests`), or set "
                        + ALLOW_UNSIGNED_REQUESTS_KEY + "=true to accept unsigned requests on a trusted network",
                        clock);
    }

    @Override
    public String toString() {
        return masterKeys == null ? "nothing signed"
                : allowUnsignedRequests ? "signed sidecar records, unsigned requests allowed" : "signed records";
    }
}
