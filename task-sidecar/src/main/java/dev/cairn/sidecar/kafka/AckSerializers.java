package dev.cairn.sidecar.kafka;

import dev.cairn.auth.SigningSerializer;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serializer;

/**
 * What a sidecar writes its records to {@code cairn.acks} with: Avro, signed with the job's key when it has one, the
 * key of {@code auth.key.file} re-read when the file changes ({@link ReloadingKeyFile}).
 */
final class AckSerializers {

    private AckSerializers() {
    }

    /**
     * @param settings the key, and the file it came from
     * @param clock when the key file is due to be looked at again
     * @param interval how often it is looked at, at most
     */
    static Serializer<AckEnvelope> of(RuntimeSettings settings, Clock clock, Duration interval) {
        Serializer<AckEnvelope> avro = CairnSerdes.acks().serializer();
        if (settings.authKey() == null) {
            return avro;
        }
        if (settings.authKeyFile() == null) {
            return new SigningSerializer<>(avro, settings.authKey());
        }
        ReloadingKeyFile keys = new ReloadingKeyFile(settings.authKeyFile(), settings.authKey(), clock, interval);
        return new SigningSerializer<>(avro, record -> keys.get());
    }
}
