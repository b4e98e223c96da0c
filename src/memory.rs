//! Giving freed memory back to the operating system, and telling how much it can give.

/// Returns the heap's free pages to the system. Loading a large dump builds and drops many
/// buffers on several threads; the C allocator keeps what they freed for reuse, which would
/// otherwise count as the process's own memory for as long as it runs.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists; it takes no pointer.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Large blocks (a batch's rows and strings, the store's own) are taken from the system and given
/// back to it when freed, rather than kept on the heap for reuse. The C allocator decides alone
/// otherwise: after the first large block is freed it keeps every later one of up to that size,
/// and a large dump's batches, built on one thread and freed on another, leave the heap holding
/// tens of megabytes no batch uses. A block grown in place by the system also moves without
/// being copied.
pub fn give_back_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets one of the allocator's parameters; it takes no pointer, and a value it
    // refuses leaves the parameter as it was.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE_BLOCK);
    }
}

/// The size from which a block is the system's (see [`give_back_large_blocks`]).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const LARGE_BLOCK: libc::c_int = 1 << 20;

/// `len` zeros for a table of which about `touches` items are read, then written, far apart
/// (a group's number by peer, a peer's mark): [`written_zeros`] when they are many against the
/// table (a quarter of its items or more), where they touch nearly every page of it; zeroed
/// memory from the system otherwise, whose pages are faulted in only as they are touched, so
/// that a table for a few events costs nothing for its size. What is written ahead is then at
/// most four items for each touch counted (an event, at the call sites), however many tables
/// the touches are cut into (a slice of a grouping's events each). Measured on two cores only:
/// with a grouping cut into a slice for each of four threads or more, a slice's events are too
/// few against a store's strings and its table is not written.
pub fn zeros_for<T: Copy + Default>(len: usize, touches: usize) -> Vec<T> {
    if writes_ahead(len, touches) {
        written_zeros(len)
    } else {
        vec![T::default(); len]
    }
}

/// Whether [`zeros_for`] writes a table of `len` items for `touches` touches: a quarter of its
/// items or more.
fn writes_ahead(len: usize, touches: usize) -> bool {
    touches.saturating_mul(4) >= len
}

/// `len` zeros (of an integer type: its default is zero), every page of them written once. A
/// large zeroed buffer comes fresh from the system (from 1 MiB on: see
/// [`give_back_large_blocks`]); a page of it read before it is written is mapped to the shared
/// zero page, and the write that follows faults again and flushes the page from the TLB of
/// every core that runs the process's threads, with an interrupt to each of them. For a table
/// whose items are read before they are written (a hash table's slots).
pub fn written_zeros<T: Copy + Default>(len: usize) -> Vec<T> {
    // Zeroed memory from the system, for the integers this is made for.
    let mut items = vec![T::default(); len];
    write_each_page(&mut items);
    items
}

/// Writes the value already in an item of every 4 KiB of `items` (the first, and the last): each
/// page under them is then the process's own.
fn write_each_page<T: Copy>(items: &mut [T]) {
    let per_page = (4096 / std::mem::size_of::<T>().max(1)).max(1);
    for page in items.chunks_mut(per_page) {
        // SAFETY: `page` is a non-empty chunk, so its first item is valid for a read and a
        // write. Volatile, because a plain store of the value already there would be dropped
        // as useless.
        unsafe { std::ptr::write_volatile(page.as_mut_ptr(), page[0]) };
    }
    // The items need not start on a page: the last page may hold only the last items.
    if let Some(last) = items.last_mut() {
        // SAFETY: a reference to an item is valid for a write.
        unsafe { std::ptr::write_volatile(last, *last) };
    }
}

/// How much memory callscope can take before it is short of it, in bytes: what the system says
/// it can give without swapping (`MemAvailable`), or less when the control group callscope runs
/// in (a container's) has a limit that leaves less room for anonymous memory. `None` where
/// neither says.
pub fn available() -> Option<u64> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|meminfo| available_in(&meminfo));
    let group = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|groups| {
            memory_groups(&groups)
                .iter()
                .filter_map(|(dir, v2)| room_in_group(dir, *v2))
                .min()
        });
    [system, group].into_iter().flatten().min()
}

/// `MemAvailable` of the text of `/proc/meminfo`, in bytes.
fn available_in(meminfo: &str) -> Option<u64> {
    let value = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kib: u64 = value.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// The folders of the memory control groups that `/proc/self/cgroup` names, each with whether
/// it is of version 2 (mounted at `/sys/fs/cgroup`, or beside version 1 at its `unified`).
/// Inside a container the group's own folder is often the mount itself (the path is the
/// host's): where the folder named is not there, the mount's is taken. The limits of the
/// parent groups apply too, with what their other children use: their folders come after it,
/// up to the mount.
fn memory_groups(groups: &str) -> Vec<(std::path::PathBuf, bool)> {
    memory_groups_in(
        groups,
        &["/sys/fs/cgroup", "/sys/fs/cgroup/unified"],
        "/sys/fs/cgroup/memory",
    )
}

/// [`memory_groups`], with version 2 mounted at one of `v2_mounts` and version 1's memory
/// controller at `v1_mount`.
fn memory_groups_in(
    groups: &str,
    v2_mounts: &[&str],
    v1_mount: &str,
) -> Vec<(std::path::PathBuf, bool)> {
    let mut found = Vec::new();
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (controllers, path) = (parts.nth(1).unwrap_or("-"), parts.next().unwrap_or(""));
        let v2 = controllers.is_empty();
        let roots: &[&str] = if v2 {
            v2_mounts
        } else if controllers.split(',').any(|c| c == "memory") {
            std::slice::from_ref(&v1_mount)
        } else {
            &[]
        };
        for root in roots.iter().map(std::path::Path::new) {
            let named = root.join(path.trim_start_matches('/'));
            let own = if named.is_dir() {
                named
            } else {
                root.to_path_buf()
            };
            found.extend(
                own.ancestors()
                    .take_while(|dir| dir.starts_with(root))
                    .map(|dir| (dir.to_path_buf(), v2)),
            );
        }
    }
    found
}

/// The room a memory control group's limit leaves for anonymous memory; `None` when it has no
/// limit or its files cannot be read.
fn room_in_group(dir: &std::path::Path, v2: bool) -> Option<u64> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let limit = read(if v2 {
        "memory.max"
    } else {
        "memory.limit_in_bytes"
    })?;
    room_under(&limit, &read("memory.stat")?, v2)
}

/// The room under a control group's limit (the text of `memory.max`, or of version 1's
/// `memory.limit_in_bytes`, lowered to the limit of its parents that version 1's `memory.stat`
/// gives, for when their folders cannot be seen) for anonymous memory, given its `memory.stat`,
/// whose counts take in the groups under it. The group's page cache is not counted as used: the
/// system drops it when the group needs the room.
fn room_under(limit: &str, stat: &str, v2: bool) -> Option<u64> {
    let stat_value = |key: &str| -> Option<u64> {
        stat.lines().find_map(|line| {
            let (k, v) = line.split_once(' ')?;
            (k == key).then(|| v.trim().parse().ok()).flatten()
        })
    };
    // Version 2 writes `max` for no limit; version 1 a number near 2^63.
    let mut limit: u64 = limit.trim().parse().ok()?;
    if !v2 && let Some(parents) = stat_value("hierarchical_memory_limit") {
        limit = limit.min(parents);
    }
    let used = stat_value(if v2 { "anon" } else { "total_rss" })?;
    Some(limit.saturating_sub(used))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The system's page size.
    #[cfg(target_os = "linux")]
    fn page_size() -> usize {
        // SAFETY: sysconf takes no pointer.
        usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096)
    }

    /// What the kernel's page map says of each page under `items`, when it can be read: whether
    /// the page is present, and whether this process alone maps it (a page written; the shared
    /// zero page, which a read of a fresh page maps, is not).
    #[cfg(target_os = "linux")]
    fn pages_of<T>(items: &[T]) -> Option<Vec<(bool, bool)>> {
        use std::io::{Read, Seek, SeekFrom};
        let page = page_size();
        let start = items.as_ptr() as usize / page;
        let end = (items.as_ptr() as usize + std::mem::size_of_val(items)).div_ceil(page);
        let mut map = std::fs::File::open("/proc/self/pagemap").ok()?;
        map.seek(SeekFrom::Start(start as u64 * 8)).ok()?;
        let mut entries = vec![0u8; (end - start) * 8];
        map.read_exact(&mut entries).ok()?;
        let flags = entries.chunks(8).map(|e| {
            let e = u64::from_ne_bytes(e.try_into().expect("eight bytes"));
            (e >> 63 & 1 == 1, e >> 56 & 1 == 1)
        });
        Some(flags.collect())
    }

    /// Every page under the items is written, the process's own: a page not written would not
    /// be present yet, or (once read) be the shared zero page, whose later write faults again.
    /// On zeroed memory fresh from the system, advised to stay in pages of the base size (a huge
    /// page written anywhere would be present whole; where the advice is refused, the test is
    /// weaker, not wrong), and on items from half a page in to a quarter page past a page's
    /// start, so that the last page is reached only by the write of the last item.
    #[test]
    #[cfg(target_os = "linux")]
    fn write_each_page_leaves_every_page_present_and_the_process_own() {
        const STEP: usize = 4096;
        let page = page_size();
        // Larger than the C allocator ever keeps on its heap: fresh from the system.
        let len = (64 << 20) / 4;
        let mut zeros = vec![0u32; len];
        let at = zeros.as_ptr() as usize;
        let base = at.next_multiple_of(page);
        // SAFETY: madvise takes whole pages inside `zeros`, which stays allocated meanwhile;
        // the advice changes how they are backed, not their contents.
        unsafe {
            let end = (at + len * 4) / page * page;
            libc::madvise(base as *mut libc::c_void, end - base, libc::MADV_NOHUGEPAGE);
        }
        let first = (base + STEP / 2 - at) / 4;
        let steps = (len - first) / (STEP / 4) - 2;
        let items = &mut zeros[first..first + steps * (STEP / 4) + STEP / 4 * 3 / 4];
        write_each_page(items);
        assert!(items.iter().all(|&z| z == 0));
        let Some(pages) = pages_of(items) else {
            eprintln!("skipped: /proc/self/pagemap cannot be read here");
            return;
        };
        let unwritten = pages.iter().filter(|&&(present, own)| !(present && own));
        assert_eq!(unwritten.count(), 0, "of {} pages", pages.len());
        // Other sizes of item and of buffer, a page's edges included, keep their values.
        for len in [0, 1, 511, 512, 513, 4096 * 3 + 1] {
            let zeros: Vec<u64> = written_zeros(len);
            assert_eq!(zeros, vec![0u64; len]);
            let zeros: Vec<u8> = written_zeros(len);
            assert_eq!(zeros, vec![0u8; len]);
            let mut counted: Vec<u16> = (0..len).map(|n| n as u16).collect();
            write_each_page(&mut counted);
            assert!(counted.iter().enumerate().all(|(n, &c)| c == n as u16));
        }
    }

    /// A table is written ahead from a quarter of its items touched; below, it is left to be
    /// faulted in as touched.
    #[test]
    #[cfg(target_os = "linux")]
    fn zeros_for_writes_ahead_from_a_quarter_of_the_items_touched() {
        assert!(writes_ahead(100, 25));
        assert!(!writes_ahead(100, 24));
        assert!(writes_ahead(0, 0));
        assert!(writes_ahead(usize::MAX, usize::MAX / 4 + 1));
        assert!(!writes_ahead(usize::MAX, usize::MAX / 4 - 1));
        // The C allocator fills what it hands out where told to: nothing is left untouched.
        if std::env::var_os("MALLOC_PERTURB_").is_some() {
            eprintln!("skipped: MALLOC_PERTURB_ is set");
            return;
        }
        let len = (64 << 20) / 4;
        let few: Vec<u32> = zeros_for(len, len / 1000);
        let many: Vec<u32> = zeros_for(len, len / 3);
        let (Some(few), Some(many)) = (pages_of(&few), pages_of(&many)) else {
            eprintln!("skipped: /proc/self/pagemap cannot be read here");
            return;
        };
        assert!(few.iter().filter(|&&(present, _)| present).count() < few.len() / 4);
        assert!(many.iter().all(|&(present, own)| present && own));
    }

    #[test]
    fn the_memory_available_is_read_from_meminfo_in_bytes() {
        let meminfo =
            "MemTotal:       24576000 kB\nMemFree:        1000 kB\nMemAvailable:   21000000 kB\n";
        assert_eq!(available_in(meminfo), Some(21_000_000 * 1024));
        assert_eq!(available_in("MemTotal: 5 kB\n"), None);
        assert_eq!(available_in("MemAvailable: lots\n"), None);
    }

    #[test]
    fn a_control_groups_room_is_its_limit_less_its_anonymous_memory() {
        let v2_stat = "anon 300\nfile 5000\nkernel 10\n";
        assert_eq!(room_under("1000\n", v2_stat, true), Some(700));
        assert_eq!(room_under("max\n", v2_stat, true), None);
        assert_eq!(room_under("200\n", v2_stat, true), Some(0));
        let v1_stat = "cache 5000\nrss 100\ntotal_cache 5000\ntotal_rss 400\n";
        assert_eq!(room_under("1000\n", v1_stat, false), Some(600));
        assert_eq!(room_under("1000\n", "cache 5\n", false), None);
        // A parent's lower limit counts.
        let v1_nested = "total_rss 400\nhierarchical_memory_limit 900\n";
        assert_eq!(room_under("1000\n", v1_nested, false), Some(500));
        let v1_unlimited = "total_rss 400\nhierarchical_memory_limit 9223372036854771712\n";
        assert_eq!(
            room_under("9223372036854771712\n", v1_unlimited, false),
            Some(9223372036854771712 - 400)
        );
    }

    #[test]
    fn the_memory_control_groups_are_found_in_proc_self_cgroup() {
        let mounts = tempfile::tempdir().unwrap();
        let (v2, v1) = (mounts.path().join("v2"), mounts.path().join("v1"));
        std::fs::create_dir_all(v2.join("user.slice/s.scope")).unwrap();
        std::fs::create_dir_all(v1.join("jobs/a1")).unwrap();
        let found = |groups: &str| -> Vec<(std::path::PathBuf, bool)> {
            memory_groups_in(groups, &[v2.to_str().unwrap()], v1.to_str().unwrap())
        };
        // Each group with its parents, up to the mount.
        let hybrid = "9:name=systemd:/\n4:memory:/jobs/a1\n1:cpu:/\n0::/user.slice/s.scope\n";
        let want = vec![
            (v1.join("jobs/a1"), false),
            (v1.join("jobs"), false),
            (v1.clone(), false),
            (v2.join("user.slice/s.scope"), true),
            (v2.join("user.slice"), true),
            (v2.clone(), true),
        ];
        assert_eq!(found(hybrid), want);
        // A group whose folder is not there (a container's view of the host's path) is the
        // mount's.
        let elsewhere = "4:memory:/docker/0123\n0::/kubepods/pod1/c2\n";
        assert_eq!(found(elsewhere), [(v1.clone(), false), (v2.clone(), true)]);
        // No memory controller named: none.
        assert_eq!(found("3:cpu,cpuacct:/x\n"), []);
    }
}
