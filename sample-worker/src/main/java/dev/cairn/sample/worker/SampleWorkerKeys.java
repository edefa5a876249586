package dev.cairn.sample.worker;

import dev.cairn.config.ConfigSchema;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The sample worker's configuration keys, defined once ({@link #SCHEMA}: flags, {@code CAIRN_WORKER_*}
 * environment variables and a {@code --config} file), read the way the coordinator and the sidecar read theirs. How it
 * reaches S3 is not among them: the worker kit's S3 settings come from {@code CAIRN_S3_*} and the AWS SDK's own
 * environment ({@link dev.cairn.kit.storage.S3Settings#fromEnvironment}).
 */
public final class SampleWorkerKeys {

    public static final String PORT = "port";
    public static final String BIND_ADDRESS = "bind.address";
    public static final String STATE_DIR = "state.dir";
    public static final String SLOW_MS = "slow.ms";
    public static final String DECLINE_EVERY = "decline.every";
    public static final String FINISH_AFTER = "finish.after";

    /** The keys, their flags ({@code --bind-address}) and environment variables ({@code CAIRN_WORKER_PORT}). */
    public static final ConfigSchema SCHEMA = new ConfigSchema("cairn-sample-worker", new ConfigDef()
            .define(PORT, Type.INT, 8090, Range.between(0, 65535), Importance.HIGH,
                    "Port to listen on, 0 for a free one.")
            .define(BIND_ADDRESS, Type.STRING, "127.0.0.1", new NonEmptyString(), Importance.HIGH,
                    "Address to listen on; loopback by default, as the sidecar runs beside the worker.")
            .define(STATE_DIR, Type.STRING, "/tmp/cairn-worker", new NonEmptyString(), Importance.LOW,
                    "Unused: the counter is kept at each checkpoint's storage location (a file: or s3:// base, with "
                            + "CAIRN_S3_* and the AWS SDK's variables for S3); still accepted, so that existing "
                            + "configurations start.")
            .define(SLOW_MS, Type.LONG, 0L, Range.atLeast(0), Importance.LOW,
                    "Delay before a snapshot completes, in ms.")
            .define(DECLINE_EVERY, Type.INT, 0, Range.atLeast(0), Importance.LOW,
                    "Decline the checkpoints whose id is a multiple of N; 0 never declines.")
            .define(FINISH_AFTER, Type.LONG, 0L, Range.atLeast(0), Importance.LOW,
                    "Bounded input: finish when the counter reaches N (one record per checkpoint), answering that "
                            + "snapshot with the final state; 0 never finishes."),
            "CAIRN_WORKER_", null);

    private SampleWorkerKeys() {
    }
}
