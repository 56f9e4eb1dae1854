#!/usr/bin/env bash
# Builds the Soft-RoCE guest into an empty directory: rootfs.img (raw ext4), vmlinuz, initrd.img, build.log.
#
#   softroce/image/build.sh OUT_DIR
#
# Needs root (debootstrap and chroot), debootstrap, e2fsprogs (mke2fs -d) and network access to a Debian mirror
# (SOFTROCE_MIRROR, default http://deb.debian.org/debian). softroce/run calls it with a temporary OUT_DIR and moves
# the result into the cache; everything this script reads (itself, packages, kernel-packages, init) is hashed into
# the cache key, so a change to any of them builds a new image.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUT_DIR}
mirror=${SOFTROCE_MIRROR:-http://deb.debian.org/debian}
suite=bookworm

mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/build.log
rootfs=$out/rootfs
: >"$log"

started=$SECONDS
step_name=""
step_started=0
step() {
  finish_step
  step_name=$1
  step_started=$SECONDS
  printf 'softroce: [image %3ds] %s ...\n' $((SECONDS - started)) "$step_name"
  echo "=== $step_name" >>"$log"
}
finish_step() {
  if [ -n "$step_name" ]; then
    printf 'softroce: [image %3ds] %s done in %ds\n' $((SECONDS - started)) "$step_name" $((SECONDS - step_started))
  fi
  step_name=""
}

cleanup() {
  local status=$?
  # never leave the build's /proc mounted, whatever happened
  if mountpoint -q "$rootfs/proc" 2>/dev/null; then umount -l "$rootfs/proc" || true; fi
  if [ $status -ne 0 ]; then
    echo "softroce: image build FAILED during '$step_name' (exit $status); last lines of $log:" >&2
    tail -n 30 "$log" >&2 || true
  fi
}
trap cleanup EXIT

list() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1" | tr -s ' \n' ',' | sed 's/,$//'; }

step "debootstrap $suite (minbase + $(list "$here/packages" | tr ',' ' '))"
debootstrap --variant=minbase --include="$(list "$here/packages")" "$suite" "$rootfs" "$mirror" >>"$log" 2>&1

step "kernel and a small initramfs"
# MODULES=list: only what mounting the root disk needs goes into the initramfs (5 MB instead of 35 MB);
# everything else (virtio_net, 9p, rdma_rxe) is loaded from the root file system by the init script.
mkdir -p "$rootfs/etc/initramfs-tools/conf.d"
echo 'MODULES=list' >"$rootfs/etc/initramfs-tools/conf.d/softroce.conf"
printf '%s\n' virtio_pci virtio_blk ext4 >>"$rootfs/etc/initramfs-tools/modules"
# no services may start inside the chroot
printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
chmod 755 "$rootfs/usr/sbin/policy-rc.d"
mount -t proc proc "$rootfs/proc"
chroot "$rootfs" env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  apt-get install -y --no-install-recommends $(list "$here/kernel-packages" | tr ',' ' ') >>"$log" 2>&1
umount "$rootfs/proc"
rm -f "$rootfs/usr/sbin/policy-rc.d"
kver=$(basename "$(ls -d "$rootfs"/lib/modules/* | sort -V | tail -n 1)")
echo "kernel $kver" >>"$log"
cp "$rootfs/boot/vmlinuz-$kver" "$out/vmlinuz"
cp "$rootfs/boot/initrd.img-$kver" "$out/initrd.img"

step "trim and install the init script"
mods=$rootfs/lib/modules/$kver/kernel
# drivers and subsystems a headless virtio guest with Soft-RoCE never loads
rm -rf "$mods"/sound "$mods"/drivers/gpu "$mods"/drivers/media "$mods"/drivers/net/wireless "$mods"/net/wireless \
  "$mods"/net/mac80211 "$mods"/net/bluetooth "$mods"/drivers/bluetooth "$mods"/drivers/usb "$mods"/drivers/scsi \
  "$mods"/drivers/staging "$mods"/drivers/isdn "$mods"/drivers/hid "$mods"/drivers/input "$mods"/drivers/iio \
  "$mods"/drivers/net/ethernet "$mods"/drivers/net/can "$mods"/drivers/mmc "$mods"/drivers/mtd \
  "$mods"/drivers/hwmon "$mods"/drivers/platform "$mods"/drivers/infiniband/hw "$mods"/drivers/ata \
  "$mods"/drivers/firewire "$mods"/drivers/nfc "$mods"/net/nfc "$mods"/drivers/video "$mods"/drivers/leds \
  "$mods"/drivers/power "$mods"/drivers/w1 "$mods"/drivers/watchdog "$mods"/drivers/thunderbolt \
  "$mods"/drivers/net/usb "$mods"/drivers/net/phy "$mods"/drivers/net/wwan "$mods"/drivers/md \
  "$mods"/fs/btrfs "$mods"/fs/xfs "$mods"/fs/ocfs2 "$mods"/fs/gfs2 "$mods"/fs/nfs "$mods"/fs/nfsd \
  "$mods"/fs/ceph "$mods"/fs/smb "$mods"/fs/f2fs "$mods"/fs/ntfs3
rm -rf "$rootfs"/boot/* "$rootfs"/vmlinuz* "$rootfs"/initrd.img* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
  "$rootfs"/usr/share/locale/* "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* \
  "$rootfs"/var/cache/debconf/*-old "$rootfs"/var/log/*.log "$rootfs"/usr/lib/firmware/* "$rootfs"/lib/firmware/*
chroot "$rootfs" /sbin/depmod "$kver" >>"$log" 2>&1
install -m 0755 "$here/init" "$rootfs/sbin/softroce-init"
echo softroce >"$rootfs/etc/hostname"

step "ext4 image (mke2fs -d)"
used_mb=$(du -sm "$rootfs" | cut -f1)
size_mb=$((used_mb + used_mb / 4 + 128))
mke2fs -q -t ext4 -L softroce -d "$rootfs" -F "$out/rootfs.img" "${size_mb}M" >>"$log" 2>&1
rm -rf "$rootfs"
finish_step
printf 'softroce: [image %3ds] image ready: kernel %s, rootfs %s MB (%s MB used)\n' $((SECONDS - started)) \
  "$kver" "$size_mb" "$used_mb"
echo "$kver" >"$out/kernel-version"
