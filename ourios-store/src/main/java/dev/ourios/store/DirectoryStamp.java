package dev.ourios.store;

import java.time.Instant;

/**
 * What a directory's own metadata says of its entries: the file system's identity of the directory and the time its
 * entries last changed. Adding, removing or renaming an entry sets a directory's modification time (POSIX), so two
 * equal stamps taken at different times mean the same entries, provided the later change could not carry the same
 * time: see {@link QuietListings}, which trusts a stamp only once the directory has been quiet for a while.
 *
 * @param directory the file system's key of the directory (device and inode), so a directory replaced by another
 *                  of the same modification time is not the same directory
 * @param modified  when its entries last changed, to the nanosecond where the file system records it
 */
public record DirectoryStamp(Object directory, Instant modified) {
}
