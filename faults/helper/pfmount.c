/*
 * pfmount: the calls a disk that cannot lose power needs (faults/loop-disk.ts), made by one
 * long-lived process instead of a mount, umount or filefrag process each: attach an image to a
 * free loop device and mount its filesystem, unmount it, and read a file's extents (FIEMAP).
 *
 *   pfmount
 *
 * Commands on stdin, one a line, fields separated by tabs; one reply each on stdout:
 *   mount IMAGE MNT FSTYPE [OPTIONS]
 *                            "ok /dev/loopN": attached with autoclear (the device lets go of the
 *                            image when the filesystem is unmounted) and mounted at MNT, with the
 *                            filesystem's OPTIONS (as mount -o takes them) where given
 *   umount MNT               "ok"
 *   extents PATH [sync]      "ok N", then N lines "LOGICAL PHYSICAL LENGTH FLAGS" (bytes; FLAGS the
 *                            kernel's fe_flags in hex), as FIEMAP gives them; with sync, once the
 *                            kernel has written out the file's dirty pages (FIEMAP_FLAG_SYNC)
 * or "error TEXT". It ends when stdin closes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_FIELDS 5

static void reply_error(const char *what, const char *arg, int err) {
  printf("error %s %s: %s\n", what, arg, strerror(err));
}

/* A free loop device configured over IMAGE (autoclear), then mounted at MNT. */
static void do_mount(const char *image, const char *mnt, const char *fstype, const char *data) {
  int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (ctl < 0) return reply_error("open", "/dev/loop-control", errno);
  int file = open(image, O_RDWR | O_CLOEXEC);
  if (file < 0) {
    close(ctl);
    return reply_error("open", image, errno);
  }
  char dev[32];
  int loop = -1, err = 0;
  for (int attempt = 0; attempt < 20 && loop < 0; attempt++) {
    int n = ioctl(ctl, LOOP_CTL_GET_FREE);
    if (n < 0) {
      err = errno;
      break;
    }
    snprintf(dev, sizeof dev, "/dev/loop%d", n);
    int fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && mknod(dev, S_IFBLK | 0600, makedev(7, n)) == 0) fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      err = errno;
      break;
    }
    struct loop_config config;
    memset(&config, 0, sizeof config);
    config.fd = (uint32_t)file;
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
    strncpy((char *)config.info.lo_file_name, image, LO_NAME_SIZE - 1);
    if (ioctl(fd, LOOP_CONFIGURE, &config) == 0) {
      loop = fd;
    } else {
      err = errno;
      close(fd);
      if (err != EBUSY) break; /* taken by another process meanwhile: ask again */
    }
  }
  close(ctl);
  close(file);
  if (loop < 0) return reply_error("attach", image, err);
  if (mount(dev, mnt, fstype, 0, data) != 0) {
    err = errno;
    close(loop); /* autoclear: the device lets go of the image */
    return reply_error("mount", dev, err);
  }
  close(loop); /* the mount holds it now */
  printf("ok %s\n", dev);
}

static void do_umount(const char *mnt) {
  if (umount2(mnt, 0) != 0) return reply_error("umount", mnt, errno);
  printf("ok\n");
}

#define BATCH 256

static void do_extents(const char *path, int sync) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return reply_error("open", path, errno);
  size_t size = sizeof(struct fiemap) + BATCH * sizeof(struct fiemap_extent);
  struct fiemap *map = malloc(size);
  size_t cap = 64, count = 0;
  struct fiemap_extent *all = malloc(cap * sizeof *all);
  uint64_t start = 0;
  int last = 0, err = 0;
  while (map && all && !last) {
    memset(map, 0, size);
    map->fm_start = start;
    map->fm_length = FIEMAP_MAX_OFFSET - start;
    map->fm_extent_count = BATCH;
    map->fm_flags = sync ? FIEMAP_FLAG_SYNC : 0;
    if (ioctl(fd, FS_IOC_FIEMAP, map) != 0) {
      err = errno;
      break;
    }
    if (map->fm_mapped_extents == 0) break;
    for (uint32_t i = 0; i < map->fm_mapped_extents; i++) {
      struct fiemap_extent *e = &map->fm_extents[i];
      if (count == cap) {
        struct fiemap_extent *more = realloc(all, 2 * cap * sizeof *all);
        if (!more) {
          err = ENOMEM;
          break;
        }
        all = more;
        cap *= 2;
      }
      all[count++] = *e;
      if (e->fe_flags & FIEMAP_EXTENT_LAST) last = 1;
      start = e->fe_logical + e->fe_length;
    }
    if (err) break;
  }
  close(fd);
  if (!map || !all) err = ENOMEM;
  if (err) {
    reply_error("fiemap", path, err);
  } else {
    printf("ok %zu\n", count);
    for (size_t i = 0; i < count; i++) {
      printf("%llu %llu %llu %x\n", (unsigned long long)all[i].fe_logical, (unsigned long long)all[i].fe_physical,
             (unsigned long long)all[i].fe_length, all[i].fe_flags);
    }
  }
  free(map);
  free(all);
}

int main(void) {
  char *line = NULL;
  size_t len = 0;
  ssize_t got;
  while ((got = getline(&line, &len, stdin)) > 0) {
    if (line[got - 1] == '\n') line[--got] = '\0';
    char *field[MAX_FIELDS] = {0};
    int n = 0;
    for (char *rest = line, *f; n < MAX_FIELDS && (f = strsep(&rest, "\t")) != NULL;) field[n++] = f;
    if ((n == 4 || n == 5) && strcmp(field[0], "mount") == 0) do_mount(field[1], field[2], field[3], n == 5 ? field[4] : NULL);
    else if (n == 2 && strcmp(field[0], "umount") == 0) do_umount(field[1]);
    else if (n == 2 && strcmp(field[0], "extents") == 0) do_extents(field[1], 0);
    else if (n == 3 && strcmp(field[0], "extents") == 0 && strcmp(field[2], "sync") == 0) do_extents(field[1], 1);
    else printf("error unknown command: %s\n", field[0] ? field[0] : "");
    fflush(stdout);
  }
  free(line);
  return 0;
}
