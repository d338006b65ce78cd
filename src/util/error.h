/*
 * The one way cuvk returns an error: cuvk_error(CUDA_ERROR_..., "what was
 * wrong", ...) logs the message with file, line and the code's name, and
 * evaluates to the code, so a check reads as a single return statement.
 */
#ifndef CUVK_UTIL_ERROR_H
#define CUVK_UTIL_ERROR_H

#include <cuda.h>
#include <vulkan/vulkan.h>

CUresult cuvk_error_at(CUresult res, const char *file, int line, const char *fmt, ...)
   __attribute__((format(printf, 4, 5)));

#define cuvk_error(res, ...) cuvk_error_at((res), __FILE__, __LINE__, __VA_ARGS__)

/* Maps a failed VkResult to the CUDA code real CUDA gives for the same
 * condition, logging the Vulkan result's name. */
CUresult cuvk_vk_error_at(VkResult vr, const char *file, int line, const char *what);
#define cuvk_vk_error(vr, what) cuvk_vk_error_at((vr), __FILE__, __LINE__, (what))

const char *cuvk_result_name(CUresult res);
const char *cuvk_result_string(CUresult res);
const char *cuvk_vk_result_name(VkResult vr);

#endif
