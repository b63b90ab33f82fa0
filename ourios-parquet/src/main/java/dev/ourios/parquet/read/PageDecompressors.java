package dev.ourios.parquet.read;

import dev.ourios.parquet.LogFormatException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The page decompression of one reader, for every codec a Parquet file can name but LZO (docs/spec/storage.md,
 * "Codecs"): UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW, LZ4 and BROTLI, each through its field-standard library
 * ({@link PageCodec}). Pages go through parquet-java's page reader, which asks this factory for each chunk's codec;
 * parquet-java's own factory would load Hadoop codec classes by name instead, some of which need native Hadoop
 * libraries. A file naming any other codec is refused when it is opened ({@link #checkReadable}), naming the file,
 * the column and the codec.
 *
 * <p>One per reader and used by its thread only, as parquet-java's own factory is; {@link #release()} (called when
 * the reader closes) frees the codecs' native contexts. A reader compresses nothing.
 */
public final class PageDecompressors implements CompressionCodecFactory {
    /** The codecs this reader decodes. */
    public static final Set<CompressionCodecName> READABLE = EnumSet.of(CompressionCodecName.UNCOMPRESSED,
            CompressionCodecName.SNAPPY, CompressionCodecName.GZIP, CompressionCodecName.ZSTD,
            CompressionCodecName.LZ4_RAW, CompressionCodecName.LZ4, CompressionCodecName.BROTLI);

    private final Map<CompressionCodecName, BytesInputDecompressor> open = new EnumMap<>(CompressionCodecName.class);

    /**
     * Refuses a file with a column chunk, among {@code columns} of {@code blocks}, compressed with a codec this
     * reader does not decode: one line naming the file, the column and the codec.
     */
    public static void checkReadable(String file, List<BlockMetaData> blocks) throws LogFormatException {
        for (BlockMetaData b : blocks) {
            for (ColumnChunkMetaData c : b.getColumns()) {
                CompressionCodecName codec = c.getCodec();
                if (!READABLE.contains(codec)) {
                    throw new LogFormatException(file + ": column '" + c.getPath().toDotString()
                            + "' is compressed with " + codec + ", which this reader does not decode (it reads "
                            + READABLE + ")");
                }
            }
        }
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return open.computeIfAbsent(codec, PageDecompressors::decompressorOf);
    }

    private static BytesInputDecompressor decompressorOf(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED -> new UncompressedPageCodec();
            case ZSTD -> new ZstdPageCodec();
            case SNAPPY -> new SnappyPageCodec();
            case GZIP -> new GzipPageCodec();
            case LZ4_RAW -> new Lz4RawPageCodec();
            case LZ4 -> new Lz4HadoopPageCodec();
            case BROTLI -> new BrotliPageCodec();
            default -> throw new IllegalArgumentException("pages compressed with " + codec
                    + ", which this reader does not decode (it reads " + READABLE + ")");
        };
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        throw new UnsupportedOperationException("a reader compresses nothing");
    }

    @Override
    public void release() {
        open.values().forEach(BytesInputDecompressor::release);
        open.clear();
    }
}
